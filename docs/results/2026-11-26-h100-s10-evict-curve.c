/* Session 10 exploration: the share of target lines an L2-sized pool of random lines evicts,
 * against the pool's size (f x the L2), through the backend's evict operation. Each target's
 * threshold: midway between its own hit and its probe after a 3 x L2 pool. */
#include <stdio.h>
#include <stdlib.h>
#include "backend.h"
#include "cuda/cuda_backend.h"
#define NT 16
#define R 5
static uint64_t rnd(void) { return ((uint64_t)rand() << 31) ^ (uint64_t)rand(); }
int main(int argc, char **argv)
{
    gs_backend *dev;
    gs_error err;
    gs_device_info info;
    unsigned passes = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    uint64_t line = 128, cap = info.l2_bytes / line, region = 32 * cap;
    size_t maxpool = 3 * cap;
    uint64_t *pool = malloc(maxpool * sizeof *pool), t[NT];
    unsigned char *used = calloc(region, 1);
    srand(7);
    for (int i = 0; i < NT; i++) {
        uint64_t x;
        do x = rnd() % region; while (used[x]);
        used[x] = 1, t[i] = x * line;
    }
    for (size_t i = 0; i < maxpool; i++) {
        uint64_t x;
        do x = rnd() % region; while (used[x]);
        used[x] = 1, pool[i] = x * line;
    }
    double hit[R * NT], probe[R * NT], thr[NT];
    static const double fs[] = {3.0, 0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};
    printf("passes %u, L2 %llu lines, targets %d, repeats %d\n", passes, (unsigned long long)cap, NT, R);
    for (size_t k = 0; k < sizeof fs / sizeof *fs; k++) {
        gs_evict_plan p = {.footprint_bytes = region * line, .targets = t, .n_targets = NT,
                           .pool = pool, .n_pool = (size_t)(fs[k] * (double)cap),
                           .warm_passes = 1, .pool_passes = passes, .repeats = R};
        gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
        if (dev->ops->evict(dev, &p, &r, &err)) { fprintf(stderr, "evict: %s\n", err.msg); return 1; }
        if (k == 0) {
            for (int i = 0; i < NT; i++) {
                double h = 0, m = 0;
                for (size_t j = 0; j < r.n; j++) h += hit[j * NT + i], m += probe[j * NT + i];
                thr[i] = (h + m) / 2 / (double)r.n;
                printf("target %2d hit %.0f miss %.0f\n", i, h / (double)r.n, m / (double)r.n);
            }
            continue;
        }
        unsigned ev = 0, tot = 0;
        printf("f %.2f evicted per target:", fs[k]);
        for (int i = 0; i < NT; i++) {
            unsigned e = 0;
            for (size_t j = 0; j < r.n; j++) e += probe[j * NT + i] > thr[i];
            printf(" %u", e);
            ev += e, tot += (unsigned)r.n;
        }
        printf("  share %.3f (sm_moves %u)\n", (double)ev / tot, r.sm_moves);
    }
    gs_backend_close(dev);
    return 0;
}
