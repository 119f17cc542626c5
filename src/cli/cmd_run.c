/* `gpusonar run PROBE [PROBE OPTIONS]`: one probe with its own options, checked against the
 * probe's option table before any device is touched. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int gs_cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gs_error err;
    if (gs_args.npositional == 0) {
        fprintf(stderr, "gpusonar: run needs a probe name: gpusonar run PROBE; 'gpusonar list' "
                        "names them\n");
        return GS_EXIT_USAGE;
    }
    const gs_probe_def *def = gs_probe_find(gs_args.positional[0]);
    if (!def) {
        char hint[96];
        fprintf(stderr, "gpusonar: unknown probe '%s'%s; 'gpusonar list' names them\n",
                gs_args.positional[0], gs_cli_suggest_probe(gs_args.positional[0], hint,
                                                            sizeof hint));
        return GS_EXIT_USAGE;
    }
    if (def->opts) {
        if (gs_opts_parse(def->opts, gs_opts_len(def->opts), gs_args.nrest, gs_args.rest, NULL, NULL, 0,
                          NULL, &err)) {
            fprintf(stderr, "gpusonar: run %s: %s\n", def->name, err.msg);
            return GS_EXIT_USAGE;
        }
    } else if (gs_args.nrest > 0) {
        fprintf(stderr, "gpusonar: run %s: unknown option '%s'; see 'gpusonar run %s --help'\n",
                def->name, gs_args.rest[0], def->name);
        return GS_EXIT_USAGE;
    }
    gs_args.probe_only = true;
    return gs_cli_run_probes(&def, 1, gs_args.nrest, gs_args.rest, true);
}

/* `gpusonar run PROBE --help`: the probe's own options, then the common ones. */
void gs_cmd_run_help(const char *probe)
{
    const gs_command *run = gs_command_find("run");
    const gs_probe_def *def = probe ? gs_probe_find(probe) : NULL;
    if (!def) {
        gs_cli_print_help(run);
        if (probe)
            printf("\n'%s' is not a probe; 'gpusonar list' names them.\n", probe);
        return;
    }
    gs_command one = *run;
    char synopsis[128];
    snprintf(synopsis, sizeof synopsis, "gpusonar run %s [OPTIONS]", def->name);
    one.synopsis = synopsis;
    one.description = def->summary;
    one.opts = def->opts;
    gs_cli_print_help(&one);
}
