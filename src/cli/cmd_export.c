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
};
const int gs_cmd_export_opt_count = sizeof gs_cmd_export_opts / sizeof gs_cmd_export_opts[0];

/* text[0..len) to path through a temporary file in the same folder. */
static int write_atomically(const char *path, const char *text, size_t len, gs_error *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s; choose another --out path", path,
                       strerror(errno));
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
    }
    return 0;
}

static int export_accelsim(const json_t *doc, gs_error *err)
{
    gs_export_opts opts = {(unsigned)l2_sub_partitions};
    if (!out_path || strcmp(out_path, "-") == 0)
        return gs_export_accelsim(stdout, doc, &opts, err);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return gs_fail(err, GS_ERR_NO_MEMORY, "export: out of host memory");
    int rc = gs_export_accelsim(mem, doc, &opts, err);
    fclose(mem);
    if (rc == 0)
        rc = write_atomically(out_path, buf, len, err);
    free(buf);
    return rc;
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
    if (gs_report_load(gs_args.positional[1], &doc, &err))
        return gs_cli_fail(&err);
    int rc = export_accelsim(doc, &err);
    json_decref(doc);
    if (rc) {
        gs_cli_fail(&err);
        return err.status == GS_ERR_INPUT ? GS_EXIT_USAGE : GS_EXIT_FAILED;
    }
    return GS_EXIT_OK;
}
