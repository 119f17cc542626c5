/* `gpusonar export accel-sim RESULT.json [--out FILE] [--l2-sub-partitions N]`: a GPGPU-Sim /
 * Accel-Sim configuration fragment made from a saved result document
 * (src/report/export_accelsim.c; docs/accel-sim-export.md). Nothing is measured. The file is
 * written to a temporary name and renamed, as every output of gpusonar is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/outfile.h"
#include "report/export_accelsim.h"
#include "report/report.h"

static const char *out_path;        /* --out FILE */
static long long l2_sub_partitions; /* --l2-sub-partitions N */

const gs_opt gs_cmd_export_opts[] = {
    {"out", GS_OPT_STRING, &out_path, "FILE", "write the fragment to FILE (default: stdout)",
     NULL, 0, 0},
    {"l2-sub-partitions", GS_OPT_INT, &l2_sub_partitions, "N",
     "memory sub-partitions the L2 is split over (-gpgpu_n_mem x "
     "-gpgpu_n_sub_partition_per_mchannel); without it the dl2 line is a comment", NULL, 1, 4096},
    GS_OPT_END,
};

static int print_fragment(FILE *f, const void *doc, gs_error *err)
{
    gs_export_opts opts = {(unsigned)l2_sub_partitions};
    return gs_export_accelsim(f, (const json_t *)doc, &opts, err);
}

int gs_cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (gs_args.npositional != 2 || strcmp(gs_args.positional[0], "accel-sim") != 0) {
        fprintf(stderr, "gpusonar: export needs a format and a result file: gpusonar export "
                        "accel-sim RESULT.json (the only format is accel-sim)\n");
        return GS_EXIT_USAGE;
    }
    gs_error err;
    json_t *doc = NULL;
    if (out_path && gs_outfile_check(out_path, "--out", &err))
        return gs_cli_fail(&err);
    if (gs_report_load(gs_args.positional[1], &doc, &err))
        return gs_cli_fail(&err);
    int rc = gs_cli_write(out_path, "--out", print_fragment, doc, &err);
    json_decref(doc);
    if (rc) {
        gs_cli_fail(&err);
        return err.status == GS_ERR_INPUT ? GS_EXIT_USAGE : GS_EXIT_FAILED;
    }
    return GS_EXIT_OK;
}
