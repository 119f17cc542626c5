/* What a probe is: one file in src/probes/ with a run function that builds plans, hands them to
 * the backend, analyses what comes back (src/analysis/) and adds figures to the result tree.
 * Probes never print results and never format output; progress goes through gs_progress. */
#ifndef GS_PROBE_H
#define GS_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "result/hints.h"
#include "result/result.h"
#include "util/error.h"
#include "util/opts.h"

enum {
    GS_PROBE_DEFAULT = 1u << 0,   /* part of the full report (`gpusonar` with no arguments) */
    GS_PROBE_HOST_LINK = 1u << 1, /* loads what GPUs of a node share (host memory, PCIe, NVLink):
                                   * under --concurrent these probes take turns (concurrent.c) */
    GS_PROBE_APART = 1u << 2,     /* on a simulated device with two cores, runs in a second
                                   * process beside the others (cli/sim_apart.h): no probe reads
                                   * its records, and it reads none it cannot do without */
};

typedef struct gs_probe_ctx {
    gs_backend *backend;
    const gs_device_info *info;
    gs_run *run;
    bool thorough;                /* --thorough: more samples, tighter intervals */
    bool quiet;                   /* -q: no progress on stderr */
    uint64_t seed;
    double clock_khz;             /* measured SM clock (clock probe), for cycles -> ns; 0 unknown */
    const char *csv_dir;          /* --csv DIR or NULL (the report layer writes it) */
    int argc;                     /* the probe's own options (after `gpusonar run NAME`) */
    char **argv;
} gs_probe_ctx;

typedef int (*gs_probe_fn)(gs_probe_ctx *ctx, gs_error *err);

/* A probe, as its own file declares it: everything the tool knows of a probe is here. */
typedef struct gs_probe_def {
    const char *name;
    gs_probe_fn run;
    unsigned flags;
    const char *summary;          /* one line for `gpusonar list` */
    const gs_opt *opts;           /* the probe's options, ended by GS_OPT_END (--help, parsing) */
    double expected_s;            /* seconds of the quick report on an H100 or H200
                                     (docs/hardware/); --thorough takes about 4 times */
    double expected_sim_s;        /* seconds on the simulator's hopper model, one core */
    int keep_rank;                /* --budget keeps rank 1 first, then 2, ...; 0: last */
    gs_hints hints;               /* how its records read in the text report */
} gs_probe_def;

/* The registry (src/probes/registry.c), in the order the full report runs the probes. */
extern const gs_probe_def *const gs_probes[];
extern const int gs_probe_count;
const gs_probe_def *gs_probe_find(const char *name);

/* Progress line on stderr ("  l1: sweeping 16 KB..."), silent with --quiet. */
void gs_progress(const gs_probe_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse the probe's own options from ctx->argc/argv against its table (the same table as in its
 * registry row, whose targets the probe reset to defaults first). GS_ERR_USAGE on bad input;
 * --help is handled by the CLI before the probe runs. */
int gs_probe_parse_opts(const gs_probe_ctx *ctx, const gs_opt *opts, gs_error *err);

/* A backend's GS_ERR_UNSUPPORTED is an answer, not a failure: its message goes into why (the
 * reason the probe's figures give), err is cleared and 0 returns. Any other rc returns as it is,
 * with why empty. */
int gs_probe_unsupported_why(int rc, gs_error *err, char *why, size_t why_len);

/* Measure the SM clock now with a short clock plan (for before/after checks); 0 on failure. */
double gs_probe_clock_khz(gs_backend *b);

/* Convert cycles to ns with the measured clock; NAN when it is unknown. */
double gs_cycles_to_ns(const gs_probe_ctx *ctx, double cycles);

/* The probes' descriptors, one per probe file (the cache probe's in probes/cache/cache.h). */
extern const gs_probe_def gs_probe_clock_def;
extern const gs_probe_def gs_probe_smem_banks_def;
extern const gs_probe_def gs_probe_mem_bandwidth_def;
extern const gs_probe_def gs_probe_pchase_def;
extern const gs_probe_def gs_probe_global_patterns_def;
extern const gs_probe_def gs_probe_bandwidth_def;
extern const gs_probe_def gs_probe_random_walk_def;
extern const gs_probe_def gs_probe_paths_def;
extern const gs_probe_def gs_probe_pipeline_def;
extern const gs_probe_def gs_probe_roofline_def;
extern const gs_probe_def gs_probe_divergence_def;
extern const gs_probe_def gs_probe_l2_partitions_def;
extern const gs_probe_def gs_probe_p2p_def;
extern const gs_probe_def gs_probe_atomics_def;
extern const gs_probe_def gs_probe_cluster_def;
extern const gs_probe_def gs_probe_write_policy_def;
extern const gs_probe_def gs_probe_dram_layout_def;
extern const gs_probe_def gs_probe_l2_persist_def;
extern const gs_probe_def gs_probe_tensor_def;
extern const gs_probe_def gs_probe_launch_def;
extern const gs_probe_def gs_probe_energy_def;
extern const gs_probe_def gs_probe_icache_def;

#endif
