/* `gpusonar help [COMMAND [PROBE]]` and `gpusonar version`. */
#include <stdio.h>

#include "cli/cli.h"
#include "gs_commit.h"        /* GS_GIT_COMMIT: written by the build (cmake/commit.cmake) */

void gs_cmd_run_help(const char *probe);

static bool as_man;               /* --man */

const gs_opt gs_cmd_help_opts[] = {
    {"man", GS_OPT_FLAG, &as_man, NULL, "print the man page gpusonar(1) in roff", NULL, 0, 0},
    GS_OPT_END,
};

int gs_cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (as_man)
        return gs_cli_print_man();
    if (gs_args.npositional == 0) {
        gs_cli_print_main_help();
        return GS_EXIT_OK;
    }
    const gs_command *cmd = gs_command_find(gs_args.positional[0]);
    if (!cmd) {
        fprintf(stderr, "gpusonar: no help for '%s'; 'gpusonar help' lists the commands\n",
                gs_args.positional[0]);
        return GS_EXIT_USAGE;
    }
    if (cmd == gs_command_find("run"))
        gs_cmd_run_help(gs_args.npositional > 1 ? gs_args.positional[1] : NULL);
    else
        gs_cli_print_help(cmd);
    return GS_EXIT_OK;
}

int gs_cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("gpusonar %s (%s)\n", GS_VERSION, GS_GIT_COMMIT);
    return GS_EXIT_OK;
}
