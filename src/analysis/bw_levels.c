/* Levels of a bandwidth footprint sweep's plateaus (see bw_levels.h). */
#include "analysis/bw_levels.h"

const char *gs_bw_level_name(int level)
{
    static const char *const names[GS_BW_LEVELS] = { "l1", "l2", "dram" };
    return level >= 0 && level < GS_BW_LEVELS ? names[level] : "unknown";
}

int gs_bw_level_of(double footprint_bytes, double l1_bytes, double l2_bytes)
{
    if (l1_bytes > 0 && footprint_bytes <= l1_bytes)
        return GS_BW_L1;
    if (footprint_bytes <= l2_bytes)
        return GS_BW_L2;
    return footprint_bytes >= GS_BW_DRAM_FROM_L2 * l2_bytes ? GS_BW_DRAM : GS_BW_NONE;
}

size_t gs_bw_level_points(const gs_plateau *q, const double *x, int level, double l1_bytes,
                          double l2_bytes, size_t *idx)
{
    size_t n = 0;
    for (size_t i = q->first; i < q->first + q->count; i++)
        if (gs_bw_level_of(x[i], l1_bytes, l2_bytes) == level) {
            if (idx)
                idx[n] = i;
            n++;
        }
    return n;
}

void gs_bw_levels_pick(const gs_plateau *p, int count, const double *x, double l1_bytes,
                       double l2_bytes, size_t min_points, int pick[GS_BW_LEVELS])
{
    for (int level = 0; level < GS_BW_LEVELS; level++) {
        size_t best = 0;
        pick[level] = -1;
        for (int i = 0; i < count; i++) {
            size_t n = gs_bw_level_points(&p[i], x, level, l1_bytes, l2_bytes, NULL);
            if (n < min_points || n < best)
                continue;
            if (n > best || p[i].latency > p[pick[level]].latency) {
                best = n;
                pick[level] = i;
            }
        }
    }
}
