/* Exploration driver (not part of the tool): fine-grained traces of the L1 around its capacity
 * under a pinned carve-out preference and shared-memory budget, the configuration the `cache`
 * probe studies (docs/methods.md, "Trace budget"). For sequential chains of one element per
 * STRIDE bytes over N lines near capacity, it prints per N: misses per pass, and how many chain
 * positions missed at least once, in at least half the passes, and in every pass; with
 * GS_L1X_POSITIONS=1 it also lists the positions that missed in every pass; GS_L1X_PASSES sets
 * the passes recorded (8).
 * Usage: l1_explore CARVEOUT SMEM_BYTES STRIDE FIRST_LINES LAST_LINES [STEP]
 * Build: cc -std=gnu11 -Isrc bench/l1_explore.c build-X/libgs.a -lcudart_static -ljansson -lm ... */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"

#define THRESHOLD 150

int main(int argc, char **argv)
{
    gs_backend *b;
    gs_error err;
    if (argc < 6 || gs_cuda_open(0, &b, &err)) {
        fprintf(stderr, "usage: l1_explore CARVEOUT SMEM_BYTES STRIDE FIRST_LINES LAST_LINES [STEP]"
                        " (needs a GPU)\n");
        return 2;
    }
    int carveout = atoi(argv[1]);
    uint64_t smem = strtoull(argv[2], NULL, 0), stride = strtoull(argv[3], NULL, 0);
    long first = atol(argv[4]), last = atol(argv[5]), step = argc > 6 ? atol(argv[6]) : 1;
    bool list = getenv("GS_L1X_POSITIONS") != NULL;
    const unsigned PASSES = getenv("GS_L1X_PASSES") ? (unsigned)atoi(getenv("GS_L1X_PASSES")) : 8;
    printf("carveout %d%%, smem %llu B, stride %llu B (128-B lines)\n", carveout,
           (unsigned long long)smem, (unsigned long long)stride);
    printf("%8s %10s %9s %9s %9s %9s %8s %8s\n", "lines", "bytes", "miss/pass", "pos>=1",
           "pos>=half", "pos=all", "hit_med", "miss_med");
    for (long lines = first; lines <= last; lines += step) {
        uint64_t bytes = (uint64_t)lines * 128, n = bytes / stride;
        uint64_t *chain = malloc(n * sizeof *chain);
        uint32_t *lat = malloc(n * PASSES * sizeof *lat), *cnt = calloc(n, sizeof *cnt);
        for (uint64_t i = 0; i < n; i++)
            chain[i] = i * stride;
        gs_chase_plan p = {.space = GS_SPACE_GLOBAL, .path = GS_PATH_CA, .footprint_bytes = bytes,
                           .chain = chain, .chain_len = n, .element_bytes = 4,
                           .warmup_passes = 2, .record_n = n * PASSES,
                           .carveout_percent = carveout, .smem_bytes = smem};
        gs_chase_result r = {.latency_cycles = lat};
        gs_error_clear(&err);
        if (b->ops->chase(b, &p, &r, &err)) {
            printf("%8ld chase failed: %s\n", lines, err.msg);
            free(chain), free(lat), free(cnt);
            continue;
        }
        uint64_t miss = 0, ge1 = 0, half = 0, all = 0;
        uint64_t hh[1024] = {0}, mh[1024] = {0};
        for (uint64_t i = 0; i < n * PASSES; i++) {
            bool m = lat[i] > THRESHOLD;
            cnt[i % n] += m;
            miss += m;
            (m ? mh : hh)[lat[i] < 1023 ? lat[i] : 1023]++;
        }
        for (uint64_t i = 0; i < n; i++)
            ge1 += cnt[i] >= 1, half += cnt[i] >= PASSES / 2, all += cnt[i] == PASSES;
        uint64_t acc = 0, hmed = 0, mmed = 0, hn = n * PASSES - miss;
        for (int v = 0; v < 1024 && hn; v++)
            if ((acc += hh[v]) * 2 >= hn) { hmed = v; break; }
        acc = 0;
        for (int v = 0; v < 1024 && miss; v++)
            if ((acc += mh[v]) * 2 >= miss) { mmed = v; break; }
        printf("%8ld %10llu %9.1f %9llu %9llu %9llu %8llu %8llu\n", lines,
               (unsigned long long)bytes, (double)miss / PASSES, (unsigned long long)ge1,
               (unsigned long long)half, (unsigned long long)all, (unsigned long long)hmed,
               (unsigned long long)mmed);
        if (list && all && all <= 64) {
            printf("         every-pass misses at line:");
            for (uint64_t i = 0; i < n; i++)
                if (cnt[i] == PASSES)
                    printf(" %llu", (unsigned long long)(chain[i] / 128));
            printf("\n");
        }
        free(chain), free(lat), free(cnt);
    }
    gs_backend_close(b);
    return 0;
}
