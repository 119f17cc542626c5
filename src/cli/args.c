/* The command line's parser: the common options, which of them each command takes, options
 * anywhere on the line (before or after the command word), and --help from the same tables. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/suggest.h"

gs_cli gs_args;

static const gs_opt common_opts[] = {
    {"device", GS_OPT_STRING, &gs_args.device, "DEV",
     "cuda:N, cuda:UUID, cuda:all, a list (cuda:0,2), sim, sim:NAME or sim:FILE.json (default: "
     "cuda:0 if a GPU is present, else sim:hopper)",
     NULL, 0, 0},
    {"json", GS_OPT_STRING, &gs_args.json, "FILE", "write the result document (schema gpusonar/1); - for stdout", NULL, 0, 0},
    {"csv", GS_OPT_STRING, &gs_args.csv, "DIR", "write every series as CSV into DIR", NULL, 0, 0},
    {"seed", GS_OPT_UINT64, &gs_args.seed, "N", "seed for random chains and simulator noise (default 1)", NULL, 0, 0},
    {"quiet", GS_OPT_FLAG, &gs_args.quiet, NULL, "no progress on stderr (also -q)", NULL, 0, 0},
    {"thorough", GS_OPT_FLAG, &gs_args.thorough, NULL, "more samples for tighter intervals (slower)", NULL, 0, 0},
    {"format", GS_OPT_CHOICE, &gs_args.format, "FMT", "how stdout shows the report (default text)",
     "text|markdown|csv", 0, 0},
    {"out-dir", GS_OPT_STRING, &gs_args.out_dir, "DIR",
     "write each device's result document as DIR/<host>-<GPU UUID>.json (for 'gpusonar fleet')",
     NULL, 0, 0},
    {"concurrent", GS_OPT_FLAG, &gs_args.concurrent, NULL,
     "with a device list and --out-dir: measure the devices at once, one process each (probes "
     "that use the host link run alone)",
     NULL, 0, 0},
};
enum { COMMON_COUNT = sizeof common_opts / sizeof common_opts[0] };

static const gs_opt *find_in(const gs_opt *tab, int n, const char *name, size_t len)
{
    for (int k = 0; tab && k < n; k++)
        if (strlen(tab[k].name) == len && strncmp(tab[k].name, name, len) == 0)
            return &tab[k];
    return NULL;
}

bool gs_cli_option_takes_value(const char *name, size_t len)
{
    const gs_opt *o = find_in(common_opts, COMMON_COUNT, name, len);
    for (int i = 0; !o && i < gs_command_count; i++)
        o = find_in(gs_commands[i].opts, gs_opts_len(gs_commands[i].opts), name, len);
    for (int i = 0; !o && i < gs_probe_count; i++)
        if (gs_probes[i]->opts)
            o = find_in(gs_probes[i]->opts, gs_opts_len(gs_probes[i]->opts), name, len);
    return o && o->kind != GS_OPT_FLAG;
}

/* Whether argv[i] is a word, and how many entries an option at i spans. */
static int span_at(int argc, char **argv, int i, bool *word)
{
    const char *a = argv[i];
    *word = false;
    if (strncmp(a, "--", 2) == 0 && a[2]) {
        size_t len = strcspn(a + 2, "=");
        bool value = a[2 + len] != '=' && gs_cli_option_takes_value(a + 2, len);
        return value && i + 1 < argc ? 2 : 1;
    }
    if (a[0] == '-' && a[1])
        return 1; /* -q, -h, -o FILE is per command and follows the command word */
    *word = true;
    return 1;
}

int gs_cli_command_index(int argc, char **argv)
{
    for (int i = 1; i < argc;) {
        bool word;
        int n = span_at(argc, argv, i, &word);
        if (word)
            return i;
        i += n;
    }
    return 0;
}

const char *gs_cli_suggest_option(const gs_command *cmd, const char *name, size_t len,
                                  char *buf, size_t buflen)
{
    char word[64];
    gs_suggest sg;
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    gs_suggest_init(&sg, word);
    for (int k = 0; cmd && k < gs_opts_len(cmd->opts); k++)
        gs_suggest_offer(&sg, cmd->opts[k].name, strlen(cmd->opts[k].name));
    for (int k = 0; k < COMMON_COUNT; k++)
        if (!cmd || (cmd->common & (1u << k)))
            gs_suggest_offer(&sg, common_opts[k].name, strlen(common_opts[k].name));
    return gs_suggest_text(&sg, "--", buf, buflen);
}

bool gs_cli_option_known(const char *name, size_t len)
{
    if (find_in(common_opts, COMMON_COUNT, name, len))
        return true;
    for (int i = 0; i < gs_command_count; i++)
        if (find_in(gs_commands[i].opts, gs_opts_len(gs_commands[i].opts), name, len))
            return true;
    for (int i = 0; i < gs_probe_count; i++)
        if (gs_probes[i]->opts &&
            find_in(gs_probes[i]->opts, gs_opts_len(gs_probes[i]->opts), name, len))
            return true;
    return false;
}

static int take_common(const gs_command *cmd, const gs_opt *o, gs_error *err)
{
    int bit = (int)(o - common_opts);
    if (cmd->common & (1u << bit))
        return 0;
    return gs_fail(err, GS_ERR_USAGE, "--%s does not apply to '%s'; see 'gpusonar %s --help'",
                   o->name, cmd->name, cmd->name);
}

static char long_out[] = "--out";

/* The options given on the line, by name (a command refuses those it does not use). */
static const char *given[64];
static int ngiven;

static void note_given(const char *name)
{
    if (ngiven < (int)(sizeof given / sizeof *given))
        given[ngiven++] = name;
}

const char *gs_cli_given(const char *const *names)
{
    for (int i = 0; i < ngiven; i++)
        for (int k = 0; names[k]; k++)
            if (strcmp(given[i], names[k]) == 0)
                return names[k];
    return NULL;
}

int gs_cli_parse(const gs_command *cmd, int argc, char **argv, bool allow_rest, gs_error *err)
{
    gs_args.npositional = 0;
    gs_args.nrest = 0;
    ngiven = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            gs_args.help = true;
            continue;
        }
        if (strcmp(a, "-q") == 0) {
            if (!(cmd->common & GS_COMMON_QUIET))
                return gs_fail(err, GS_ERR_USAGE, "-q does not apply to '%s'", cmd->name);
            gs_args.quiet = true;
            note_given("quiet");
            continue;
        }
        if (strcmp(a, "-o") == 0 && find_in(cmd->opts, gs_opts_len(cmd->opts), "out", 3))
            argv[i] = a = long_out;   /* -o FILE: a command's --out (html, plot) */
        const char *name = strncmp(a, "--", 2) == 0 && a[2] ? a + 2 : NULL;
        size_t len = name ? strcspn(name, "=") : 0;
        /* A command's own option comes first: fleet's --format has choices of its own. */
        const gs_opt *o = name ? find_in(cmd->opts, gs_opts_len(cmd->opts), name, len) : NULL;
        int rc = 0;
        if (!o && name && (o = find_in(common_opts, COMMON_COUNT, name, len)))
            rc = take_common(cmd, o, err);
        if (rc)
            return rc;
        if (o) {
            int n = o->kind != GS_OPT_FLAG && name[len] != '=' && i + 1 < argc ? 2 : 1;
            if ((rc = gs_opts_parse(o, 1, n, argv + i, NULL, NULL, 0, NULL, err)))
                return rc;
            note_given(o->name);
            i += n - 1;
            continue;
        }
        bool word = !name && !(a[0] == '-' && a[1]);
        if (word && gs_args.npositional < cmd->max_positional &&
            gs_args.npositional < (int)(sizeof gs_args.positional / sizeof *gs_args.positional)) {
            gs_args.positional[gs_args.npositional++] = a;
            continue;
        }
        if (!allow_rest) {
            char hint[96] = "";
            if (name)
                gs_cli_suggest_option(cmd, name, len, hint, sizeof hint);
            return gs_fail(err, GS_ERR_USAGE, "%s '%s' for '%s'%s; see 'gpusonar %s --help'",
                           word ? "unexpected argument" : "unknown option", a, cmd->name, hint,
                           cmd->name);
        }
        /* A probe's option and its value go to the probe together, so that the value is not
         * taken for the probe's name. */
        int n = name && name[len] != '=' && gs_cli_option_takes_value(name, len) && i + 1 < argc
                    ? 2 : 1;
        if (gs_args.nrest + n > (int)(sizeof gs_args.rest / sizeof *gs_args.rest))
            return gs_fail(err, GS_ERR_USAGE, "too many arguments");
        for (int k = 0; k < n; k++)
            gs_args.rest[gs_args.nrest++] = argv[i + k];
        i += n - 1;
    }
    return 0;
}

/* ---- help ---------------------------------------------------------------------------------- */
static void print_common(const gs_command *cmd)
{
    bool any = false;
    for (int k = 0; k < COMMON_COUNT; k++)
        if (cmd->common & (1u << k)) {
            if (!any)
                printf("\nCommon options (anywhere on the line):\n");
            any = true;
            gs_opts_print(stdout, &common_opts[k], 1);
        }
    printf("  %-26s %s\n", "--help, -h", "this help");
}

void gs_cli_print_help(const gs_command *cmd)
{
    printf("usage: %s\n\n%s\n", cmd->synopsis, cmd->description);
    if (cmd->opts && gs_opts_len(cmd->opts) > 0) {
        printf("\nOptions:\n");
        gs_opts_print(stdout, cmd->opts, gs_opts_len(cmd->opts));
    }
    print_common(cmd);
}

void gs_cli_print_main_help(void)
{
    printf("usage: gpusonar [COMMAND] [OPTIONS]\n\n"
           "Measures what GPU vendors do not publish: cache and TLB structure, shared-memory banks,\n"
           "memory latency and bandwidth, instruction latencies and the occupancy roofline.\n"
           "Without a command it runs the default report.\n\nCommands:\n");
    for (int i = 0; i < gs_command_count; i++)
        printf("  %-16s %s\n", gs_commands[i].name, gs_commands[i].summary);
    printf("\nCommon options (anywhere on the line; each command takes those it uses):\n");
    gs_opts_print(stdout, common_opts, COMMON_COUNT);
    printf("  %-26s %s\n  %-26s %s\n", "--help, -h", "this help ('gpusonar COMMAND --help' for one command)",
           "--version", "the version");
    printf("\nExit status:\n");
    for (int i = 0; gs_exit_statuses[i].text; i++)
        printf("  %-4d %s\n", gs_exit_statuses[i].status, gs_exit_statuses[i].text);
}

const gs_exit_doc gs_exit_statuses[] = {
    {GS_EXIT_OK, "success"},
    {GS_EXIT_FAILED, "a probe failed while measuring (its record stays in the document), an output "
                     "could not be written (standard output included), or (compare) some figure "
                     "differs"},
    {GS_EXIT_USAGE, "usage error or bad input (command, option, value, output path, an output "
                    "that is an input, model or result file, no GPU), found before anything was "
                    "measured"},
    {GS_EXIT_SIGHUP, "stopped by SIGHUP (the terminal closed); the result document is written, "
                     "marked incomplete"},
    {GS_EXIT_SIGINT, "interrupted by Ctrl-C; the result document is written, marked incomplete "
                     "(a command that measures nothing stops at once, its temporary files "
                     "removed)"},
    {GS_EXIT_SIGTERM, "stopped by SIGTERM; the result document is written, marked incomplete"},
    {0, NULL},
};

const gs_opt *gs_cli_common_options(int *count)
{
    *count = COMMON_COUNT;
    return common_opts;
}

const gs_command *gs_command_find(const char *name)
{
    for (int i = 0; i < gs_command_count; i++)
        if (strcmp(gs_commands[i].name, name) == 0)
            return &gs_commands[i];
    return NULL;
}
