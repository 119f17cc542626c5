/* `gpusonar compare A.json B.json`: the figures of two saved documents side by side; the exit
 * status is diff's: 0 equal within their intervals, 1 some figure differs, 2 trouble. */
#include <stdio.h>

#include "cli/cli.h"
#include "report/report.h"

int gs_cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (gs_args.npositional != 2) {
        fprintf(stderr, "gpusonar: compare needs two result files: gpusonar compare A.json B.json\n");
        return GS_EXIT_USAGE;
    }
    gs_error err;
    json_t *docs[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++)
        if (gs_report_load(gs_args.positional[i], &docs[i], &err)) {
            json_decref(docs[0]);
            gs_cli_fail(&err);
            return GS_EXIT_USAGE;
        }
    int differing = 0;
    gs_report_compare(stdout, docs[0], docs[1], &differing);
    json_decref(docs[0]);
    json_decref(docs[1]);
    return differing ? GS_EXIT_FAILED : GS_EXIT_OK;
}
