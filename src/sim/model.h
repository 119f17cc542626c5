/* A simulated GPU: what a model file (docs/sim-models.md) describes, loaded and validated.
 * The top level (model.c) reads the "name", "device" and "noise" sections and hands every other
 * top-level key to the parser of its section, listed in one table in model.c: "memory" (caches,
 * TLBs, DRAM: memory.c), "shared_memory" (banks: banks.c), "pipeline" (pipeline.c), "bandwidth"
 * (stream.c), "node" (several devices and their links: node.c), "atomics" (atomics.c), "cluster"
 * (thread-block clusters, distributed shared memory and bulk copies: cluster.c), "tensor"
 * (tensor.c), "launch" (launch and synchronization costs: launch.c), "energy" (power and an energy
 * counter: energy.c). Validation is strict: an unknown key or an impossible value is an error
 * that names the key path ("caches[1].sets: 32 sets x 4 ways x 128 B = 16384 B, but size is
 * 12288 B"). */
#ifndef GS_SIM_MODEL_H
#define GS_SIM_MODEL_H

#include <stdint.h>

#include <jansson.h>

#include "plan.h"
#include "util/rng.h"

struct sim_memory;      /* memory.h */
struct sim_banks;       /* banks.h */
struct sim_pipeline;    /* pipeline.h */
struct sim_bandwidth;   /* stream.h */
struct sim_level_bandwidth;   /* level_bandwidth.c */
struct sim_node;        /* node.c */
struct sim_atomics;     /* atomics.c */
struct sim_tensor;      /* tensor.c */
struct sim_cluster;     /* cluster.c */
struct sim_launch;      /* launch.c */
struct sim_energy;      /* energy.c */
struct sim_icache;      /* icache.c */

typedef struct gs_sim_model {
    char name[64];
    char source[256];              /* built-in name or file path */
    char description[256];
    gs_device_info info;           /* from "device" (name, sm_count, clock_khz, l2_bytes, ...) */
    double noise_cycles;           /* "noise": {"jitter_cycles": J}: uniform integer jitter in
                                      [0, J] cycles added to every timed access or kernel */
    double noise_outlier_rate;     /* "noise": {"outlier_rate": p}: probability of a large spike */
    double noise_outlier_cycles;   /* size of such a spike */
    double clock_wander_percent;   /* "noise": {"clock_wander_percent": w}: each clock reading's
                                      frequency is off by up to +-w % (to test drift warnings) */
    double clock64_read_cycles;    /* "device": cost of one clock64 read (default 0: not modelled) */
    double globaltimer_read_cycles;
    double globaltimer_resolution_ns; /* default 1 */
    gs_rng rng;                    /* seeded from --seed: the only source of randomness */
    struct sim_memory *memory;
    struct sim_banks *banks;
    struct sim_pipeline *pipeline;
    struct sim_bandwidth *bandwidth;
    struct sim_level_bandwidth *level_bandwidth;   /* "bandwidth"."levels"; NULL if absent */
    struct sim_node *node;         /* "node": several devices and their links; NULL if absent */
    struct sim_atomics *atomics;   /* "atomics": latency and throughput of atomics; NULL if absent
                                      (the model has no atomic unit) */
    struct sim_tensor *tensor;     /* "tensor": MMA latency and rate per type; NULL if absent (the
                                      model has no tensor unit) */
    struct sim_cluster *cluster;   /* "cluster": thread-block clusters and TMA; NULL if absent */
    struct sim_launch *launch;     /* "launch": launch and synchronization costs; NULL if absent */
    struct sim_energy *energy;     /* "energy": power and its counter; NULL if absent */
    struct sim_icache *icache;     /* "icache": instruction-cache levels; NULL if absent */
} gs_sim_model;

/* A section parser: reads json (the value of its top-level key) into model; where is the key
 * path for messages ("memory"). GS_ERR_INPUT with a message naming the key on any problem. */
typedef int (*sim_section_parse_fn)(const json_t *json, const char *where, gs_sim_model *model,
                                    gs_error *err);
typedef void (*sim_section_free_fn)(gs_sim_model *model);

/* Load a model: name of a built-in (models/NAME.json) or a path to a .json file. */
int gs_sim_model_load(const char *name_or_path, uint64_t seed, gs_sim_model **out, gs_error *err);
/* The same from a model file's text in memory; source names it in messages. */
int gs_sim_model_load_buffer(const char *text, size_t len, const char *source, uint64_t seed,
                             gs_sim_model **out, gs_error *err);
void gs_sim_model_free(gs_sim_model *model);

/* Where built-in models live: $GS_MODELS_DIR, else <install>/share/gpusonar/models, else the
 * source tree's models/. Writes the folder into buf; 0 or GS_ERR_INPUT. */
int gs_sim_models_dir(char *buf, size_t len, gs_error *err);

/* Noise: one draw of the model's jitter (0 when the model has none) from rng; inline, as a
 * chase draws once per timed access (a run of them may draw from a copy of the model's
 * generator, kept where the compiler can hold it in a register, and put back after). */
static inline double gs_sim_noise_from(const gs_sim_model *m, gs_rng *rng)
{
    double n = 0;
    if (m->noise_cycles > 0)
        n += (double)gs_rng_below(rng, (uint64_t)m->noise_cycles + 1);
    if (m->noise_outlier_rate > 0 && gs_rng_unit(rng) < m->noise_outlier_rate)
        n += m->noise_outlier_cycles;
    return n;
}

/* The same from the model's generator. */
static inline double gs_sim_noise(gs_sim_model *m)
{
    return gs_sim_noise_from(m, &m->rng);
}

/* The largest cache level (and L2), set count and ways a model may give: generous for GPUs, and
 * small enough that loading a model and a default report on it stay fast (docs/sim-models.md).
 * An access costs the same for any number of ways (cache.h), so ways are bounded only where no
 * structure is meant: 65536, sixteen times past the largest GPU TLB known. */
#define SIM_MAX_CACHE_BYTES 268435456.0
#define SIM_MAX_SETS 1048576
#define SIM_MAX_WAYS 65536
#define SIM_MAX_MODEL_LINES 4194304

/* GS_ERR_INPUT "where.key: V is out of range MIN..MAX" unless value is in the range of range_key
 * (NULL: key); model.c holds one table of ranges by key name. */
int sim_check_range(const char *where, const char *key, const char *range_key, double value,
                    gs_error *err);

/* Strict-JSON helpers for section parsers: each names the key path in its message, and bounds
 * the number to its key's range (sim_check_range). */
int sim_check_keys(const json_t *obj, const char *where, const char *const *allowed, gs_error *err);
int sim_get_uint(const json_t *obj, const char *where, const char *key, int required,
                 uint64_t *out, gs_error *err);          /* required=0: leaves *out if absent */
int sim_get_double(const json_t *obj, const char *where, const char *key, int required,
                   double *out, gs_error *err);
int sim_get_string(const json_t *obj, const char *where, const char *key, int required,
                   const char **out, gs_error *err);

#endif
