/* Session 14 exploration: does a pool's effect on the L2 depend on its order (which SM reads
 * which line), and does reading every line from one SM take that away? For 32 targets and one
 * pool of random lines: verdicts for pool order A, a shuffle B, and A again, in both modes
 * (all_sms, one SM); then the eviction curve in one-SM mode; then pool pass times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "backend.h"
#include "cuda/cuda_backend.h"
#define NT 32
#define R 5
static uint64_t rnd(void) { return ((uint64_t)rand() << 31) ^ (uint64_t)rand(); }
static gs_backend *dev;
static uint64_t region_bytes;
static uint64_t t[NT];
static double thr[2][NT];

static int plan(bool all, const uint64_t *pool, size_t n, unsigned passes, double *hit, double *probe)
{
    gs_error err;
    gs_evict_plan p = {.footprint_bytes = region_bytes, .targets = t, .n_targets = NT,
                       .pool = pool, .n_pool = n, .warm_passes = 1, .pool_passes = passes,
                       .repeats = R, .all_sms = all, .sm = 0};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    if (dev->ops->evict(dev, &p, &r, &err)) { fprintf(stderr, "evict: %s\n", err.msg); exit(1); }
    return (int)r.sm_moves;
}

static void verdicts(bool all, const uint64_t *pool, size_t n, char *out)
{
    double hit[R * NT], probe[R * NT];
    plan(all, pool, n, 2, hit, probe);
    for (int i = 0; i < NT; i++) {
        unsigned e = 0;
        for (int j = 0; j < R; j++) e += probe[j * NT + i] > thr[all][i];
        out[i] = (char)('0' + e);
    }
    out[NT] = 0;
}

static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9; }

int main(int argc, char **argv)
{
    (void)argv;
    gs_error err;
    gs_device_info info;
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    uint64_t line = 128, cap = argc > 1 ? 4096 : info.l2_bytes / line, region = 32 * cap;
    region_bytes = region * line;
    size_t maxpool = 3 * cap;
    uint64_t *pool = malloc(maxpool * sizeof *pool), *shuf = malloc(maxpool * sizeof *pool);
    unsigned char *used = calloc(region, 1);
    srand(11);
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
    printf("L2 %llu lines, targets %d, repeats %d, SMs %u\n", (unsigned long long)cap, NT, R, (unsigned)info.sm_count);
    for (int all = 0; all < 2; all++) {
        double hit[R * NT], probe[R * NT];
        plan(all, pool, maxpool, 2, hit, probe);
        printf("mode %s: hit/miss per target:", all ? "all_sms" : "one_sm");
        for (int i = 0; i < NT; i++) {
            double h = 0, m = 0;
            for (int j = 0; j < R; j++) h += hit[j * NT + i], m += probe[j * NT + i];
            thr[all][i] = (h + m) / 2 / R;
            printf(" %.0f/%.0f", h / R, m / R);
        }
        printf("\n");
    }
    if (argc > 1) {   /* the sanitizer's run: the two modes' plans only */
        gs_backend_close(dev);
        return 0;
    }
    /* order: pool of f x L2, order A, shuffle B, A again */
    static const double fo[] = {0.6, 0.8, 0.9, 1.0};
    for (size_t k = 0; k < sizeof fo / sizeof *fo; k++) {
        size_t n = (size_t)(fo[k] * (double)cap);
        memcpy(shuf, pool, n * sizeof *pool);
        for (size_t i = n - 1; i > 0; i--) { size_t j = (size_t)(rnd() % (i + 1)); uint64_t x = shuf[i]; shuf[i] = shuf[j]; shuf[j] = x; }
        for (int all = 0; all < 2; all++) {
            char a[NT + 1], b[NT + 1], a2[NT + 1], r1[NT + 1];
            verdicts(all, pool, n, a);
            verdicts(all, shuf, n, b);
            verdicts(all, pool, n, a2);
            /* rotated by one: every line to the next thread */
            memcpy(shuf, pool + 1, (n - 1) * sizeof *pool); shuf[n - 1] = pool[0];
            verdicts(all, shuf, n, r1);
            int dab = 0, daa = 0, dar = 0;
            for (int i = 0; i < NT; i++) {
                dab += (a[i] >= '3') != (b[i] >= '3');
                daa += (a[i] >= '3') != (a2[i] >= '3');
                dar += (a[i] >= '3') != (r1[i] >= '3');
            }
            printf("f %.2f %-7s A %s\n               B %s\n               A %s\n             rot %s  differ A/B %d, A/A %d, A/rot %d\n",
                   fo[k], all ? "all_sms" : "one_sm", a, b, a2, r1, dab, daa, dar);
            /* restore the shuffle for the next mode */
            memcpy(shuf, pool, n * sizeof *pool);
            srand(100 + (unsigned)k);
            for (size_t i = n - 1; i > 0; i--) { size_t j = (size_t)(rnd() % (i + 1)); uint64_t x = shuf[i]; shuf[i] = shuf[j]; shuf[j] = x; }
        }
    }
    /* the curve, one SM */
    static const double fs[] = {0.25, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0};
    for (size_t k = 0; k < sizeof fs / sizeof *fs; k++) {
        char a[NT + 1];
        verdicts(false, pool, (size_t)(fs[k] * (double)cap), a);
        int ev = 0;
        for (int i = 0; i < NT; i++) ev += a[i] >= '3';
        printf("curve one_sm f %.2f %s share %.3f\n", fs[k], a, ev / (double)NT);
    }
    /* pass cost */
    for (int all = 0; all < 2; all++) {
        double hit[R * NT], probe[R * NT];
        double t0 = now();
        for (int i = 0; i < 4; i++) plan(all, pool, 2 * cap, 2, hit, probe);
        double dt = (now() - t0) / 4;
        printf("plan of 2 x L2 pool, 3 passes x %d repeats, %s: %.1f ms (%.3f ns per line read)\n", R, all ? "all_sms" : "one_sm", dt * 1e3, dt * 1e9 / (2.0 * cap * 3 * R));
    }
    gs_backend_close(dev);
    return 0;
}
