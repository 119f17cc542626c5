/* `gpusonar plot FILE.json [--out DIR] [--all]`: PNGs of the series people look for in a saved
 * document (of every series with --all), drawn by gnuplot, with data and script beside each.
 * Nothing is measured. */
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "util/outfile.h"
#include "report/report.h"

static const char *out_dir;       /* --out DIR */
static bool all_series;           /* --all */

const gs_opt gs_cmd_plot_opts[] = {
    {"out", GS_OPT_STRING, &out_dir, "DIR", "folder for the plots (default: plots)", NULL, 0, 0},
    {"all", GS_OPT_FLAG, &all_series, NULL, "a plot of every series, not only the curated ones",
     NULL, 0, 0},
    GS_OPT_END,
};

int gs_cmd_plot(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (gs_args.npositional != 1) {
        fprintf(stderr, "gpusonar: plot needs one result file: gpusonar plot FILE.json\n");
        return GS_EXIT_USAGE;
    }
    const char *dir = out_dir ? out_dir : "plots";
    gs_error err;
    if (gs_outdir_check(dir, "--out", &err))
        return gs_cli_fail(&err);
    json_t *doc = NULL;
    if (gs_report_load(gs_args.positional[0], &doc, &err))
        return gs_cli_fail(&err);
    int count = 0;
    int rc = gs_report_plots(doc, dir, all_series, &count, &err);
    json_decref(doc);
    if (rc)
        return gs_cli_fail(&err);
    printf("%d plot%s in %s/\n", count, count == 1 ? "" : "s", dir);
    return GS_EXIT_OK;
}
