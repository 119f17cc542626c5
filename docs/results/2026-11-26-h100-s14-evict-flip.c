/* Session 14 exploration: how often one evict plan's verdict on a target repeats. 64 targets and
 * one list of 3 x L2 random pool lines, every load on SM 0; thresholds from a quarter-L2 pool
 * (kept) and the whole list (miss). For pools of f x L2 the same plan runs 20 times in a row
 * (3 repetitions each, majority verdict), then 20 times with the whole list read between (a
 * flush); per target, how many of the 20 verdicts say evicted. A deterministic cache gives 0
 * or 20 for every target. */
#include <stdio.h>
#include <stdlib.h>
#include "backend.h"
#include "cuda/cuda_backend.h"
#define K 64
#define R 3
#define N 20
static uint64_t rnd(void) { return ((uint64_t)rand() << 31) ^ (uint64_t)rand(); }
static gs_backend *dev;
static uint64_t region_bytes;
static void plan(const uint64_t *t, const uint64_t *pool, size_t n, double *hit, double *probe)
{
    gs_error err;
    gs_evict_plan p = {.footprint_bytes = region_bytes, .targets = t, .n_targets = K,
                       .pool = pool, .n_pool = n, .warm_passes = 1, .pool_passes = 2,
                       .repeats = R, .all_sms = false, .sm = 0};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    if (dev->ops->evict(dev, &p, &r, &err)) { fprintf(stderr, "evict: %s\n", err.msg); exit(1); }
}
int main(void)
{
    gs_error err;
    gs_device_info info;
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) { fprintf(stderr, "open: %s\n", err.msg); return 1; }
    uint64_t line = 128, cap = info.l2_bytes / line, region = 32 * cap;
    region_bytes = region * line;
    size_t n = 3 * cap;
    uint64_t *pool = malloc((n + K) * sizeof *pool);
    unsigned char *used = calloc(region, 1);
    srand(23);
    for (size_t i = 0; i < n + K; i++) {
        uint64_t x;
        do x = rnd() % region; while (used[x]);
        used[x] = 1, pool[i] = x * line;
    }
    const uint64_t *t = pool + n;
    double hit[R * K], quiet[R * K], full[R * K], thr[K];
    plan(t, pool, cap / 4, hit, quiet);
    plan(t, pool, n, hit, full);
    for (int i = 0; i < K; i++) {
        double q = 0, m = 0;
        for (int r = 0; r < R; r++) q += quiet[r * K + i], m += full[r * K + i];
        thr[i] = (q + m) / 2 / R;
    }
    static const double fs[] = {0.5, 0.75, 1.0, 1.25};
    for (size_t k = 0; k < sizeof fs / sizeof *fs; k++) {
        for (int flush = 0; flush < 2; flush++) {
            int count[K] = {0};
            for (int j = 0; j < N; j++) {
                if (flush)
                    plan(t, pool + cap, 2 * cap, hit, full);   /* other lines: a flush */
                plan(t, pool, (size_t)(fs[k] * (double)cap), hit, quiet);
                for (int i = 0; i < K; i++) {
                    int above = 0;
                    for (int r = 0; r < R; r++) above += quiet[r * K + i] > thr[i];
                    count[i] += 2 * above > R;
                }
            }
            int hist[N + 1] = {0};
            for (int i = 0; i < K; i++) hist[count[i]]++;
            printf("f %.2f %s: targets by verdicts evicted of %d:", fs[k], flush ? "flushed" : "in a row", N);
            for (int c = 0; c <= N; c++) if (hist[c]) printf(" %d:%d", c, hist[c]);
            printf("\n");
        }
    }
    gs_backend_close(dev);
    return 0;
}
