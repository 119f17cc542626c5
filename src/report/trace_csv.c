/* Raw fine-grained traces as CSV (trace_csv.h). */
#include "report/trace_csv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int gs_trace_csv_write(const char *path, const uint64_t *offsets, size_t chain_len,
                       const uint32_t *latency_cycles, size_t n, gs_error *err)
{
    char tmp[4096];
    if (chain_len == 0 || snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return gs_fail(err, GS_ERR_IO, "--trace %s: path too long or empty chain", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gs_fail(err, GS_ERR_IO, "--trace %s: cannot write %s: %s", path, tmp,
                       strerror(errno));
    fprintf(f, "access,offset_bytes,latency_cycles\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%zu,%llu,%u\n", i, (unsigned long long)offsets[i % chain_len],
                latency_cycles[i]);
    int bad = ferror(f);
    bad |= fclose(f);
    if (bad || rename(tmp, path)) {
        remove(tmp);
        return gs_fail(err, GS_ERR_IO, "--trace %s: writing failed: %s", path, strerror(errno));
    }
    return 0;
}
