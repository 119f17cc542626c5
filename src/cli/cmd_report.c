/* `gpusonar [report]`: every default probe in its quick configuration (or --probes A,B), with
 * progress on stderr and the one-page report on stdout; `report --from FILE` prints a saved
 * document instead of measuring. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "util/suggest.h"

static const char *probes_arg;    /* --probes a,b */
static const char *from_path;     /* --from FILE */
static double budget_s;           /* --budget SECONDS */

const gs_opt gs_cmd_report_opts[] = {
    {"probes", GS_OPT_STRING, &probes_arg, "A,B", "run only these probes (see 'gpusonar list')", NULL, 0, 0},
    {"from", GS_OPT_STRING, &from_path, "FILE", "print the report of a saved result document instead of measuring", NULL, 0, 0},
    {"budget", GS_OPT_DOUBLE, &budget_s, "SECONDS",
     "plan the probes to finish within SECONDS: quick samples instead of --thorough first, then "
     "fewer probes; says what it cut", NULL, 0, 0},
    {"details", GS_OPT_FLAG, &gs_args.details, NULL,
     "after the summary, every figure of each probe with its whole reason, not only the headline "
     "figures", NULL, 0, 0},
    GS_OPT_END,
};

/* What report --from does not use: it prints a saved document, nothing is measured. */
static const char *const measuring_opts[] = {"probes", "budget", "json", "csv", "out-dir",
                                             "device", "seed", "quiet", "thorough", "concurrent",
                                             NULL};

static int print_saved(void)
{
    gs_error err;
    const char *unused = gs_cli_given(measuring_opts);
    if (unused) {
        fprintf(stderr, "gpusonar: --%s does not apply to 'report --from' (it prints a saved "
                "document; nothing is measured); remove it\n", unused);
        return GS_EXIT_USAGE;
    }
    json_t *doc = NULL;
    if (gs_report_load(from_path, &doc, &err))
        return gs_cli_fail(&err);
    gs_report_print(stdout, doc, gs_cli_format(), gs_cli_report_parts());
    json_decref(doc);
    return GS_EXIT_OK;
}

/* The probes named by --probes, or every default one. Returns how many, or -1 (message printed). */
static int pick_probes(const gs_probe_def **defs, int max)
{
    int n = 0;
    if (!probes_arg) {
        for (int i = 0; i < gs_probe_count && n < max; i++)
            if (gs_probes[i]->flags & GS_PROBE_DEFAULT)
                defs[n++] = gs_probes[i];
        return n;
    }
    return gs_cli_probe_list(probes_arg, defs, max);
}

const char *gs_cli_suggest_probe(const char *word, char *buf, size_t len)
{
    gs_suggest sg;
    gs_suggest_init(&sg, word);
    for (int i = 0; i < gs_probe_count; i++)
        gs_suggest_offer(&sg, gs_probes[i]->name, strlen(gs_probes[i]->name));
    return gs_suggest_text(&sg, NULL, buf, len);
}

int gs_cli_probe_list(const char *list, const gs_probe_def **defs, int max)
{
    int n = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const gs_probe_def *d = gs_probe_find(tok);
        if (!d) {
            char hint[96];
            fprintf(stderr, "gpusonar: --probes: unknown probe '%s'%s; 'gpusonar list' names "
                    "them\n", tok, gs_cli_suggest_probe(tok, hint, sizeof hint));
            return -1;
        }
        if (n < max)
            defs[n++] = d;
    }
    if (n == 0)
        fprintf(stderr, "gpusonar: --probes needs at least one probe name\n");
    return n ? n : -1;
}

int gs_cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (from_path)
        return print_saved();
    const gs_probe_def *defs[64];
    int n = pick_probes(defs, 64);
    if (n < 0)
        return GS_EXIT_USAGE;
    if (budget_s < 0 || (budget_s > 0 && budget_s < 1)) {
        fprintf(stderr, "gpusonar: --budget %g: give at least 1 second\n", budget_s);
        return GS_EXIT_USAGE;
    }
    if (budget_s > 0) {
        gs_cli_plan_budget(defs, &n, budget_s, &gs_args.thorough, &gs_budget);
        if (!gs_args.quiet || gs_budget.ncut || gs_budget.thorough_dropped)
            gs_cli_say_budget(&gs_budget);
    }
    return gs_cli_run_probes(defs, n, 0, NULL, false);
}
