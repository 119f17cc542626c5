/* Session 14 exploration: the group reduction (cw_group_reduce, confirm) run on one near and one
 * far target of an H100's L2, every load on SM 0, with a log of the lines left; then the one-set
 * check of what is left. A target's verdict: the majority of 3 probes above the midpoint of its
 * kept level (the larger of its hit and its probe under a quarter of the pool) and its miss. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "backend.h"
#include "cuda/cuda_backend.h"
#include "probes/cache_internal.h"
#define NC 64
#define R 3
static uint64_t rnd(void) { return ((uint64_t)rand() << 31) ^ (uint64_t)rand(); }
static gs_backend *dev;
static uint64_t region_bytes;
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9; }

static void plan(const uint64_t *t, size_t nt, const uint64_t *pool, size_t n, unsigned reps, double *hit, double *probe)
{
    gs_error err;
    gs_evict_plan p = {.footprint_bytes = region_bytes, .targets = t, .n_targets = nt,
                       .pool = pool, .n_pool = n, .warm_passes = 1, .pool_passes = 2,
                       .repeats = reps, .all_sms = false, .sm = 0};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    if (dev->ops->evict(dev, &p, &r, &err)) { fprintf(stderr, "evict: %s\n", err.msg); exit(1); }
}

typedef struct vctx { uint64_t target; double thr; unsigned calls; double t0; size_t last_m; } vctx;

static int verdict(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more, gs_error *err)
{
    vctx *v = ctx;
    (void)err;
    double hit[R], probe[R];
    plan(&v->target, 1, lines, n, R, hit, probe);
    unsigned above = 0;
    for (int i = 0; i < R; i++) above += probe[i] > v->thr;
    *yes = 2 * above > R;
    v->calls++;
    if (v->calls % 250 == 0)
        printf("    verdict %u: %zu lines, %.1f s\n", v->calls, n, now() - v->t0);
    *more = v->calls < 20000;
    return 0;
}

int main(void)
{
    gs_error err;
    gs_device_info info;
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) { fprintf(stderr, "open: %s\n", err.msg); return 1; }
    uint64_t line = 128, cap = info.l2_bytes / line, region = 32 * cap;
    region_bytes = region * line;
    size_t n = 2 * cap;
    uint64_t *pool = malloc((n + NC) * sizeof *pool), *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
    unsigned char *used = calloc(region, 1);
    srand(5);
    for (size_t i = 0; i < n + NC; i++) {
        uint64_t x;
        do x = rnd() % region; while (used[x]);
        used[x] = 1, pool[i] = x * line;
    }
    const uint64_t *cand = pool + n;
    double hit[5 * NC], quiet[5 * NC], rehit[5 * NC], full[5 * NC];
    plan(cand, NC, pool, n / 4, 5, hit, quiet);
    plan(cand, NC, pool, n, 5, rehit, full);
    double kept[NC], miss[NC];
    int near = -1, far = -1;
    for (int i = 0; i < NC; i++) {
        double h = 0, q = 0, m = 0;
        for (int r = 0; r < 5; r++) h += hit[r * NC + i], q += quiet[r * NC + i], m += full[r * NC + i];
        h /= 5, q /= 5, m /= 5;
        kept[i] = h > q ? h : q, miss[i] = m;
        printf("cand %2d hit %.0f quiet %.0f miss %.0f\n", i, h, q, m);
        if (m < 700 && m > kept[i] + 150 && near < 0) near = i;
        if (m > 760 && m > kept[i] + 150 && far < 0) far = i;
    }
    int pick[2] = {near, far};
    for (int k = 0; k < 2; k++) {
        int i = pick[k];
        if (i < 0) { printf("no %s candidate\n", k ? "far" : "near"); continue; }
        vctx v = {.target = cand[i], .thr = (kept[i] + miss[i]) / 2, .t0 = now()};
        printf("%s target %d: kept %.0f miss %.0f threshold %.0f\n", k ? "far" : "near", i, kept[i], miss[i], v.thr);
        memcpy(s, pool, n * sizeof *s);
        size_t m = n;
        unsigned undone = 0;
        if (cw_group_reduce(s, &m, t, verdict, &v, true, &undone, &err)) { fprintf(stderr, "reduce: %s\n", err.msg); return 1; }
        printf("  left %zu lines after %u verdicts (%u taken back), %.1f s\n", m, v.calls, undone, now() - v.t0);
        if (m <= 64) {
            /* one-set check: each line evicted by the others and the target; and the verdict on all */
            bool yes, more;
            verdict(&v, s, m, &yes, &more, &err);
            printf("  the %zu lines evict the target: %d\n", m, yes);
            unsigned ok = 0;
            for (size_t j = 0; j < m; j++) {
                uint64_t others[80];
                size_t q = 0;
                for (size_t l = 0; l < m; l++) if (l != j) others[q++] = s[l];
                others[q++] = cand[i];
                double hh[R], pp[R];
                plan(&s[j], 1, others, q, R, hh, pp);
                double hm = hh[0] < hh[1] ? hh[0] : hh[1];
                unsigned above = 0;
                for (int r = 0; r < R; r++) above += pp[r] > hm + 150;
                ok += 2 * above > R;
                printf("   line %zu (offset %llu): hit %.0f probes %.0f %.0f %.0f\n", j, (unsigned long long)s[j], hm, pp[0], pp[1], pp[2]);
            }
            printf("  one-set check: %u of %zu lines evicted by the others\n", ok, m);
            /* 10 repeats of the verdict on the set and on the set less one line */
            unsigned y1 = 0, y2 = 0;
            for (int r = 0; r < 10; r++) {
                verdict(&v, s, m, &yes, &more, &err); y1 += yes;
                verdict(&v, s + 1, m - 1, &yes, &more, &err); y2 += yes;
            }
            printf("  repeated verdicts: all %u/10, all but line 0 %u/10\n", y1, y2);
        }
    }
    gs_backend_close(dev);
    return 0;
}
