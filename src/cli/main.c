/* gpusonar's entry point: find the command word (options may stand before or after it), parse
 * the line for that command, answer --help and --version, and run it. main alone decides the
 * exit status (cli.h: 0, 1, 2, 130, 143). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/interrupt.h"
#include "util/suggest.h"

void gs_cmd_run_help(const char *probe);

static bool has_version_flag(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--version") == 0)
            return true;
    return false;
}

/* The command word is not a command. When an unknown option stands before it, the word is
 * likely that option's value (--devise sim info): the option is what was wrong. */
static int not_a_command(char **argv, int at)
{
    char hint[128];
    for (int i = 1; i < at; i++) {
        const char *name = strncmp(argv[i], "--", 2) == 0 ? argv[i] + 2 : NULL;
        size_t len = name ? strcspn(name, "=") : 0;
        if (name && len && !gs_cli_option_known(name, len)) {
            fprintf(stderr, "gpusonar: unknown option '--%.*s'%s; 'gpusonar --help' lists them\n",
                    (int)len, name, gs_cli_suggest_option(NULL, name, len, hint, sizeof hint));
            return GS_EXIT_USAGE;
        }
    }
    gs_suggest sg;
    gs_suggest_init(&sg, argv[at]);
    for (int i = 0; i < gs_command_count; i++)
        gs_suggest_offer(&sg, gs_commands[i].name, strlen(gs_commands[i].name));
    gs_suggest_text(&sg, NULL, hint, sizeof hint);
    if (!hint[0]) {                                  /* a probe's name: `gpusonar cahce` */
        for (int i = 0; i < gs_probe_count; i++)
            gs_suggest_offer(&sg, gs_probes[i]->name, strlen(gs_probes[i]->name));
        gs_suggest_text(&sg, "run ", hint, sizeof hint);
    }
    fprintf(stderr, "gpusonar: '%s' is not a command%s; 'gpusonar --help' lists them\n",
            argv[at], hint);
    return GS_EXIT_USAGE;
}

/* stdout and stderr are checked before exit: a result that could not be written (a full disk,
 * a closed pipe) is a failure, never exit status 0. */
static int finish_streams(int rc)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        int e = errno ? errno : EIO;
        fprintf(stderr, "gpusonar: cannot write to standard output: %s\n", strerror(e));
        rc = rc ? rc : GS_EXIT_FAILED;
    }
    if (fflush(stderr) != 0 || ferror(stderr))
        rc = rc ? rc : GS_EXIT_FAILED;
    return rc;
}

int main(int argc, char **argv)
{
    gs_args.seed = 1;
    gs_args.full_argc = argc;
    gs_args.full_argv = argv;
    gs_interrupt_install();
    if (has_version_flag(argc, argv))
        return finish_streams(gs_command_find("version")->run(0, NULL));
    int at = gs_cli_command_index(argc, argv);
    const gs_command *cmd = gs_command_find(at ? argv[at] : "report");
    if (!cmd)
        return not_a_command(argv, at);
    /* Everything but the program and the command word, in order, is the command's. */
    char *args[512];
    int n = 0;
    for (int i = 1; i < argc && n < 512; i++)
        if (i != at)
            args[n++] = argv[i];
    if (argc - 1 - (at ? 1 : 0) > 512) {
        fprintf(stderr, "gpusonar: too many arguments (at most 512)\n");
        return GS_EXIT_USAGE;
    }
    gs_error err;
    int rc = gs_cli_parse(cmd, n, args, cmd == gs_command_find("run"), &err);
    if (gs_args.help) {
        if (!at) /* `gpusonar --help`: the whole program */
            gs_cli_print_main_help();
        else if (cmd == gs_command_find("run"))
            gs_cmd_run_help(gs_args.npositional ? gs_args.positional[0] : NULL);
        else
            gs_cli_print_help(cmd);
        return finish_streams(GS_EXIT_OK);
    }
    if (rc)
        return gs_cli_fail(&err);
    return finish_streams(cmd->run(n, args));
}
