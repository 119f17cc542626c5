/* Exploration driver for the CUDA chase on a real GPU (not part of the tool): raw sweeps whose
 * output designed the `paths` and `l2-partitions` probes and is quoted in
 * docs/results/2026-11-23-h100-memory.md. Usage: chase_explore OUTDIR
 * Build: cc -std=gnu11 -Isrc bench/chase_explore.c build-X/libgs.a -lcudart -lcuda -ljansson -lm
 * Writes OUTDIR/paths.csv (path, footprint, avg cycles, avg ns), OUTDIR/l2.csv (per-access
 * latency traces of the cg path over lines of several footprints, two passes each) and prints a
 * short summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/chain.h"
#include "backend.h"

static gs_backend *b;

static int chase(gs_chase_plan *p, gs_chase_result *r)
{
    gs_error err;
    gs_error_clear(&err);
    int rc = b->ops->chase(b, p, r, &err);
    if (rc)
        fprintf(stderr, "chase failed: %s\n", err.msg);
    return rc;
}

static void paths_sweep(FILE *csv, const gs_device_info *info)
{
    static const gs_load_path paths[] = {GS_PATH_DEFAULT, GS_PATH_CA, GS_PATH_CG, GS_PATH_CV,
                                         GS_PATH_NC, GS_PATH_TEX, GS_PATH_CONST};
    static const uint64_t kb[] = {2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024,
                                  4096, 16384, 24576, 32768, 40960, 49152, 65536, 131072, 262144};
    gs_rng rng;
    fprintf(csv, "path,footprint_bytes,stride_bytes,avg_cycles,avg_ns\n");
    for (size_t pi = 0; pi < sizeof paths / sizeof paths[0]; pi++)
        for (size_t k = 0; k < sizeof kb / sizeof kb[0]; k++) {
            uint64_t fp = kb[k] * 1024, stride = fp <= (1u << 20) ? 32 : 128;
            if (paths[pi] == GS_PATH_CONST && fp > 65536)
                break;
            if (paths[pi] == GS_PATH_CONST)
                stride = 64;
            uint64_t n = fp / stride;
            uint64_t *chain = malloc(n * sizeof *chain);
            gs_rng_seed(&rng, 1);
            gs_chain_sattolo(&rng, n, stride, chain);
            gs_chase_plan p = {.space = GS_SPACE_GLOBAL, .path = paths[pi], .footprint_bytes = fp,
                               .chain = chain, .chain_len = n, .element_bytes = 8,
                               .warmup_passes = fp > 2 * info->l2_bytes ? 0 : 1,
                               .timed_accesses = 20000, .carveout_percent = -1};
            gs_chase_result r = {0};
            if (chase(&p, &r) == 0) {
                fprintf(csv, "%s,%llu,%llu,%.2f,%.2f\n", gs_path_name(paths[pi]),
                        (unsigned long long)fp, (unsigned long long)stride, r.avg_cycles, r.avg_ns);
                printf("%-6s %8llu KB  %8.1f cyc %8.1f ns\n", gs_path_name(paths[pi]),
                       (unsigned long long)kb[k], r.avg_cycles, r.avg_ns);
            }
            free(chain);
        }
}

/* Per-access latencies of the cg path over n random lines in fp bytes, two passes recorded
 * after one warm-up pass: the same address should show the same latency class in both passes
 * if the classes come from where the line lives (near/far L2 partition). */
static void l2_traces(FILE *csv, const gs_device_info *info)
{
    static const uint64_t mb[] = {1, 8, 16, 24, 32, 40, 48, 64};
    gs_rng rng;
    fprintf(csv, "footprint_bytes,pass,i,offset,latency_cycles\n");
    for (size_t k = 0; k < sizeof mb / sizeof mb[0]; k++) {
        uint64_t fp = mb[k] << 20, n = 4096, stride = fp / n;
        uint64_t *chain = malloc(n * sizeof *chain);
        uint32_t *lat = malloc(2 * n * sizeof *lat);
        gs_rng_seed(&rng, 7);
        gs_chain_sattolo(&rng, n, stride, chain);
        gs_chase_plan p = {.space = GS_SPACE_GLOBAL, .path = GS_PATH_CG, .footprint_bytes = fp,
                           .chain = chain, .chain_len = n, .element_bytes = 8,
                           .warmup_passes = 1, .record_n = 2 * n, .carveout_percent = -1};
        gs_chase_result r = {.latency_cycles = lat};
        if (chase(&p, &r) == 0) {
            double s = 0;
            for (uint64_t i = 0; i < 2 * n; i++) {
                fprintf(csv, "%llu,%llu,%llu,%llu,%u\n", (unsigned long long)fp,
                        (unsigned long long)(i / n), (unsigned long long)(i % n),
                        (unsigned long long)chain[i % n], lat[i]);
                s += lat[i];
            }
            printf("l2 trace %3llu MB: mean %.1f cycles (capacity %zu)\n",
                   (unsigned long long)mb[k], s / (2 * n), r.record_capacity);
        }
        free(chain);
        free(lat);
    }
    (void)info;
}

/* Fine-grained traces of each path at 16 KB (L1-resident) for the hit latencies. */
static void hit_traces(void)
{
    static const gs_load_path paths[] = {GS_PATH_DEFAULT, GS_PATH_CA, GS_PATH_CG, GS_PATH_CV,
                                         GS_PATH_NC, GS_PATH_TEX, GS_PATH_CONST};
    static const gs_space spaces[] = {GS_SPACE_SHARED, GS_SPACE_LOCAL};
    uint64_t chain[256];
    uint32_t lat[1024];
    for (int pi = 0; pi < 9; pi++)
        for (unsigned eb = 4; eb <= 8; eb += 4) {
            gs_chain_stride(256, 64, chain);
            gs_chase_plan p = {.space = pi < 7 ? GS_SPACE_GLOBAL : spaces[pi - 7],
                               .path = pi < 7 ? paths[pi] : GS_PATH_DEFAULT,
                               .footprint_bytes = 256 * 64, .chain = chain, .chain_len = 256,
                               .element_bytes = eb, .warmup_passes = 2, .record_n = 1024,
                               .carveout_percent = -1};
            gs_chase_result r = {.latency_cycles = lat};
            if (chase(&p, &r) == 0) {
                unsigned lo = ~0u, hi = 0;
                for (int i = 0; i < 1024; i++)
                    lo = lat[i] < lo ? lat[i] : lo, hi = lat[i] > hi ? lat[i] : hi;
                printf("hit %-6s %-6s eb %u: mean %.1f min %u max %u first %u %u %u %u\n",
                       gs_space_name(p.space), gs_path_name(p.path), eb, r.avg_cycles, lo, hi,
                       lat[0], lat[1], lat[2], lat[3]);
            }
        }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* TLB exploration: count elements stride bytes apart (element k shifted by k * 128 bytes inside
 * its page so that aliased copies never collide), over virtual memory aliased onto 64 MB. */
static void tlb_sweep(FILE *csv)
{
    static const uint64_t strides[] = {2ull << 20, 32ull << 20, 1ull << 30, 2ull << 20, 32ull << 20};
    fprintf(csv, "stride_bytes,physical_bytes,count,footprint_bytes,avg_cycles,wall_s\n");
    for (size_t si = 0; si < 5; si++)
        for (uint64_t count = 8; count <= 16384; count *= 2) {
            uint64_t stride = strides[si], fp = count * stride;
            uint64_t phys = si < 3 ? 64ull << 20 : 2ull << 20;   /* last two: 2 MB pieces */
            if (fp > (2ull << 40) || (si >= 3 && fp / phys > 16384))
                break;
            uint64_t *chain = malloc(count * sizeof *chain);
            for (uint64_t k = 0; k < count; k++)
                chain[k] = k * stride + (k * 128) % (2ull << 20);
            gs_chase_plan p = {.space = GS_SPACE_GLOBAL, .path = GS_PATH_CG, .footprint_bytes = fp,
                               .physical_bytes = fp > phys ? phys : 0,
                               .chain = chain, .chain_len = count, .element_bytes = 8,
                               .warmup_passes = 1, .timed_accesses = 8192,
                               .carveout_percent = -1};
            gs_chase_result r = {0};
            double t0 = now_s();
            if (chase(&p, &r) == 0) {
                double w = now_s() - t0;
                fprintf(csv, "%llu,%llu,%llu,%llu,%.2f,%.3f\n", (unsigned long long)stride,
                        (unsigned long long)phys, (unsigned long long)count, (unsigned long long)fp, r.avg_cycles, w);
                printf("tlb stride %6llu KB phys %3llu MB count %6llu footprint %10llu MB: %8.1f cyc (%.2f s)\n",
                       (unsigned long long)(stride >> 10), (unsigned long long)(phys >> 20),
                       (unsigned long long)count,
                       (unsigned long long)(fp >> 20), r.avg_cycles, w);
            }
            free(chain);
        }
}

/* L1 capacity per carve-out preference: average-mode plain loads over footprints 8 KB apart
 * (one 8-byte element per 128 B, random order, one warm pass), no shared memory used. */
static void carveout_sweep(FILE *csv)
{
    static const int percents[] = {-1, 0, 5, 10, 25, 50, 75, 100};
    gs_rng rng;
    fprintf(csv, "carveout_percent,footprint_bytes,avg_cycles\n");
    for (size_t c = 0; c < sizeof percents / sizeof percents[0]; c++) {
        double last_hit = 0;
        for (uint64_t fp = 8192; fp <= 262144; fp += 8192) {
            uint64_t n = fp / 128;
            uint64_t *chain = malloc(n * sizeof *chain);
            gs_rng_seed(&rng, 3);
            gs_chain_sattolo(&rng, n, 128, chain);
            gs_chase_plan p = {.space = GS_SPACE_GLOBAL, .path = GS_PATH_DEFAULT,
                               .footprint_bytes = fp, .chain = chain, .chain_len = n,
                               .element_bytes = 8, .warmup_passes = 2, .timed_accesses = 8192,
                               .carveout_percent = percents[c]};
            gs_chase_result r = {0};
            if (chase(&p, &r) == 0) {
                fprintf(csv, "%d,%llu,%.2f\n", percents[c], (unsigned long long)fp, r.avg_cycles);
                if (r.avg_cycles < 40)
                    last_hit = (double)fp;
            }
            free(chain);
        }
        printf("carveout %4d%%: largest footprint with all L1 hits (< 40 cycles) %.0f KB\n",
               percents[c], last_hit / 1024);
    }
}

int main(int argc, char **argv)
{
    gs_error err;
    gs_device_info info;
    char path[512];
    if (argc < 2 || gs_cuda_open(0, &b, &err) || b->ops->info(b, &info, &err)) {
        fprintf(stderr, "usage: chase_explore OUTDIR (needs a GPU)\n");
        return 2;
    }
    printf("%s, %d SMs, L2 %llu bytes, smem optin %llu\n", info.name, info.sm_count,
           (unsigned long long)info.l2_bytes, (unsigned long long)info.smem_per_block_optin_bytes);
    if (getenv("GS_EXPLORE_CARVEOUT_ONLY")) {
        snprintf(path, sizeof path, "%s/carveout.csv", argv[1]);
        FILE *t = fopen(path, "w");
        carveout_sweep(t);
        fclose(t);
        gs_backend_close(b);
        return 0;
    }
    if (getenv("GS_EXPLORE_TLB_ONLY")) {
        snprintf(path, sizeof path, "%s/tlb.csv", argv[1]);
        FILE *t = fopen(path, "w");
        tlb_sweep(t);
        fclose(t);
        gs_backend_close(b);
        return 0;
    }
    hit_traces();
    snprintf(path, sizeof path, "%s/l2.csv", argv[1]);
    FILE *f = fopen(path, "w");
    l2_traces(f, &info);
    fclose(f);
    snprintf(path, sizeof path, "%s/paths.csv", argv[1]);
    f = fopen(path, "w");
    paths_sweep(f, &info);
    fclose(f);
    snprintf(path, sizeof path, "%s/tlb.csv", argv[1]);
    f = fopen(path, "w");
    tlb_sweep(f);
    fclose(f);
    gs_backend_close(b);
    return 0;
}
