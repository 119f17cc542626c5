/* gpusonar's entry point: find the command word (options may stand before or after it), parse
 * the line for that command, answer --help and --version, and run it. main alone decides the
 * exit status (cli.h: 0, 1, 2, 130, 143). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/interrupt.h"

void gs_cmd_run_help(const char *probe);

static bool has_version_flag(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--version") == 0)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    gs_args.seed = 1;
    gs_args.full_argc = argc;
    gs_args.full_argv = argv;
    gs_interrupt_install();
    if (has_version_flag(argc, argv))
        return gs_command_find("version")->run(0, NULL);
    int at = gs_cli_command_index(argc, argv);
    const gs_command *cmd = gs_command_find(at ? argv[at] : "report");
    if (!cmd) {
        fprintf(stderr, "gpusonar: '%s' is not a command; 'gpusonar --help' lists them\n", argv[at]);
        return GS_EXIT_USAGE;
    }
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
        return GS_EXIT_OK;
    }
    if (rc)
        return gs_cli_fail(&err);
    return cmd->run(n, args);
}
