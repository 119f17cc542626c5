/* `gpusonar list`: the probes, one line each; '*' marks those of the default report. */
#include <stdio.h>

#include "cli/cli.h"

int gs_cmd_list(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (int i = 0; i < gs_probe_count; i++)
        printf("%c %-18s %s\n", gs_probes[i]->flags & GS_PROBE_DEFAULT ? '*' : ' ',
               gs_probes[i]->name, gs_probes[i]->summary);
    return GS_EXIT_OK;
}
