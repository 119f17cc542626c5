/* `gpusonar compare A.json B.json [--tolerance PCT] [--all]`: what changed between two saved
 * documents (every figure side by side with --all); the exit status is diff's: 0 equal within
 * their intervals and resolution, 1 some figure differs or is present (determined) in one
 * document only, 2 trouble. */
#include <stdio.h>

#include "cli/cli.h"
#include "report/report.h"

static double tolerance_percent = GS_COMPARE_TOLERANCE_PERCENT;   /* --tolerance PCT */
static bool all;                                                   /* --all */

const gs_opt gs_cmd_compare_opts[] = {
    {"tolerance", GS_OPT_DOUBLE, &tolerance_percent, "PCT",
     "a figure differs only when more than PCT percent apart as well, PCT percentage "
     "points for a figure in % (default 1)", NULL, 0, 0},
    {"all", GS_OPT_FLAG, &all, NULL,
     "list every figure of both documents, not only those that changed", NULL, 0, 0},
    GS_OPT_END,
};

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
    gs_compare_counts counts;
    gs_compare_opts opts = {tolerance_percent, all};
    int rc = gs_report_compare_with(stdout, docs[0], docs[1], &opts, &counts, &err);
    json_decref(docs[0]);
    json_decref(docs[1]);
    if (rc) {
        gs_cli_fail(&err);
        return GS_EXIT_USAGE;
    }
    return counts.differing || counts.one_sided ? GS_EXIT_FAILED : GS_EXIT_OK;
}
