/* Raw fine-grained traces as CSV (trace_csv.h). */
#include "result/trace_csv.h"

#include <stdio.h>

#include "util/outfile.h"

int gs_trace_csv_write(const char *path, const uint64_t *offsets, size_t chain_len,
                       const uint32_t *latency_cycles, size_t n, gs_error *err)
{
    if (chain_len == 0)
        return gs_fail(err, GS_ERR_IO, "--trace %s: empty chain", path);
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    fprintf(out.f, "access,offset_bytes,latency_cycles\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out.f, "%zu,%llu,%u\n", i, (unsigned long long)offsets[i % chain_len],
                latency_cycles[i]);
    return gs_outfile_commit(&out, err);
}
