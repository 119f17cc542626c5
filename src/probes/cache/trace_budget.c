/* The trace budget (docs/methods.md, "Trace budget"): on a GPU whose L1 and shared memory are one
 * array, the shared memory a fine-grained trace (Listing 4 of the memory-hierarchy paper) holds is
 * L1 taken away. Every chase of an L1-like study holds one budget under one carve-out preference,
 * the largest whose average-mode L1 size equals the L1's size with no shared memory held, so
 * traces and average walks describe the L1 as the default carve-out leaves it. Also the L1 size
 * under each carve-out preference (series l1_size_by_carveout). */
#include <stdio.h>

#include "probes/cache/internal.h"

/* preferences tried: every percent to 10 (the driver rounds small ones to few sizes), then
 * coarser */
static const int carveouts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 40, 50, 60, 70,
                                80, 90, 100};

/* The average-mode L1 holding b bytes of shared memory under the walker's preference, against
 * sw0's first level l0 (the L1 with none held, walked at sw0's stride): *cmp 0 the same end
 * within two of l0's bisection brackets (a random policy over a hashed index moves the end that
 * much from one random walk to the next), -1 smaller, 1 larger (cw_avg_compare_end: two walks
 * where a sweep and its bisection took some thirty). */
static int l1_holding(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t b,
                      const cw_avg_sweep *sw0, int *cmp, gs_error *err)
{
    const cw_avg_level *l0 = &sw0->levels[0];
    gs_progress(ctx, "cache: %s, L1 size holding %llu B of shared memory, carve-out %d%s",
                t->name, (unsigned long long)b, w->carveout, w->carveout < 0 ? " (default)" : "%");
    int rc = cw_walker_set_smem(w, b, err);
    if (!rc)
        rc = cw_avg_compare_end(w, l0, sw0->stride_bytes, -1, 2 * l0->resolution_bytes, cmp, err);
    if (!rc && *cmp == -2)
        rc = gs_fail(err, GS_ERR_PROBE, "cache: the L1 sweep left no bracket to compare with");
    return rc;
}

/* The preference under which holding CW_TRACE_SMEM_MIN bytes leaves the L1 at l0's end: the
 * driver's default (-1) if it does, else bisected over 0..100 % (holding shared memory, a larger
 * preference never gives a larger L1). *found false when none does; tried lists what each gave. */
static int find_pin_pref(gs_probe_ctx *ctx, cw_walker *w, const target_def *t,
                         const cw_avg_sweep *sw0, bool *found, char *tried, size_t tried_len,
                         gs_error *err)
{
    size_t used = 0;
    int cmp = 0, lo = 0, up = 100, rc = 0;
    *found = false;
    tried[0] = 0;
#define GS_TRY(pref)                                                                           \
    do {                                                                                       \
        w->carveout = (pref);                                                                  \
        if ((rc = l1_holding(ctx, w, t, CW_TRACE_SMEM_MIN, sw0, &cmp, err)))                    \
            return rc;                                                                         \
        if (cmp == 0)                                                                          \
            return *found = true, 0;                                                           \
        if (used < tried_len)                                                                  \
            used += (size_t)snprintf(tried + used, tried_len - used, "%s%d%%: %s",             \
                                     used ? ", " : "", (pref), cmp < 0 ? "smaller" : "larger"); \
    } while (0)
    GS_TRY(-1);
    GS_TRY(lo);
    if (cmp < 0)                               /* even the smallest preference leaves less */
        return 0;
    GS_TRY(up);
    if (cmp > 0)                               /* even the largest leaves more */
        return 0;
    while (up - lo > 1) {
        int mid = lo + (up - lo) / 2;
        GS_TRY(mid);
        if (cmp > 0)
            lo = mid;
        else
            up = mid;
    }
#undef GS_TRY
    return 0;
}

/* The trace budget for an L1-like target: the L1's size with no shared memory held (sw0, the
 * default carve-out as a kernel without shared memory gets it); the preference under which
 * holding CW_TRACE_SMEM_MIN bytes leaves that size (find_pin_pref); then budgets from the
 * walker's down, halving, until one leaves it too. The walker keeps the budget and preference
 * found. *pinned is false when no preference does (why says so). */
int cw_pick_trace_smem(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                       cw_avg_sweep *sw0, bool *pinned, char *why, size_t why_len,
                       gs_error *err)
{
    uint64_t budget = w->smem_bytes;
    *pinned = true;
    gs_progress(ctx, "cache: %s, L1 size with no shared memory held", t->name);
    w->smem_bytes = 0;
    int rc = cw_avg_levels(w, 1024, bound, 128, -1, -1, sw0, err);
    w->smem_bytes = budget;
    if (rc || sw0->count == 0)
        return rc;
    const cw_avg_level *l0 = &sw0->levels[0];
    char tried[320];
    bool found;
    int cmp;
    if ((rc = find_pin_pref(ctx, w, t, sw0, &found, tried, sizeof tried, err)) != 0)
        return rc;
    if (!found) {
        *pinned = false;
        w->carveout = -1;
        snprintf(why, why_len, "holding even %llu B of shared memory changed the L1 under every "
                 "carve-out preference tried (no shared memory: %llu B; with it: %s; -1 = the "
                 "driver's default): traces would describe another L1 configuration",
                 (unsigned long long)CW_TRACE_SMEM_MIN, (unsigned long long)l0->size_bytes,
                 tried);
        return cw_walker_set_smem(w, budget, err);
    }
    for (uint64_t b = budget; b > CW_TRACE_SMEM_MIN && !rc; b /= 2) {
        rc = l1_holding(ctx, w, t, b, sw0, &cmp, err);
        if (!rc && cmp == 0)
            return 0;
    }
    return rc ? rc : cw_walker_set_smem(w, CW_TRACE_SMEM_MIN, err);
}

/* The L1 size under each carve-out preference (cudaFuncAttributePreferredSharedMemoryCarveout;
 * a hint the driver may round), from one average-mode sweep each. */
int cw_add_carveout_series(gs_probe_ctx *ctx, cw_walker *w, uint64_t bound,
                           uint64_t stride_bytes, gs_probe_out *p, gs_error *err)
{
    double x[sizeof carveouts / sizeof carveouts[0]], y[sizeof x / sizeof x[0]];
    size_t n = 0;
    int rc = 0;
    long long confirmed = 0;
    uint64_t budget = w->smem_bytes;
    cw_avg_level last = {.size_bytes = 0};     /* the last preference's L1, when it had one */
    w->smem_bytes = 0;                         /* the preference alone decides */
    for (size_t i = 0; i < sizeof carveouts / sizeof carveouts[0] && !rc; i++) {
        cw_avg_sweep sw;
        int cmp = -2;
        gs_progress(ctx, "cache: l1 under a %d%% shared-memory carve-out", carveouts[i]);
        /* the driver rounds preferences to a few sizes: the last one's end, checked first */
        if (last.size_bytes &&
            (rc = cw_avg_compare_end(w, &last, stride_bytes, carveouts[i], 0, &cmp, err)) != 0)
            break;
        if (cmp == 0) {
            x[n] = carveouts[i];
            y[n++] = (double)last.size_bytes;
            confirmed++;
            continue;
        }
        rc = cw_avg_levels(w, 1024, bound, stride_bytes, carveouts[i], -1, &sw, err);
        last.size_bytes = 0;
        if (!rc && sw.count > 0) {
            last = sw.levels[0];
            x[n] = carveouts[i];
            y[n++] = (double)sw.levels[0].size_bytes;
        } else if (!rc) {
            gs_probe_warning(p, "carve-out %d%%: %s", carveouts[i], sw.why);
        }
    }
    w->smem_bytes = budget;
    gs_param_int(p, "carveouts_confirmed", confirmed);
    if (n)
        gs_series(p, "l1_size_by_carveout", "preferred shared-memory carve-out", "%",
                  "L1 size (average-mode plateau end)", "B", x, y, n);
    return rc;
}
