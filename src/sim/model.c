/* Loading and validating a simulator model file (see model.h and docs/sim-models.md). The top
 * level and the "device" and "noise" sections are read here; every other section by the parser
 * listed for it in the table below. */
#define _GNU_SOURCE
#include "sim/model.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim.h"
#include "util/input.h"
#include "util/suggest.h"
#include "util/utf8.h"

typedef struct sim_section {
    const char *key;
    sim_section_parse_fn parse;
    sim_section_free_fn free;
} sim_section;

static const sim_section sections[] = {
    {"memory", sim_memory_parse, sim_memory_free},
    {"shared_memory", sim_banks_parse, sim_banks_free},
    {"pipeline", sim_pipeline_parse, sim_pipeline_free},
    {"bandwidth", sim_bandwidth_parse, sim_bandwidth_free},
    {"node", sim_node_parse, sim_node_free},
    {"atomics", sim_atomics_parse, sim_atomics_free},
    {"cluster", sim_cluster_parse, sim_cluster_free},
    {"tensor", sim_tensor_parse, sim_tensor_free},
    {"launch", sim_launch_parse, sim_launch_free},
    {"energy", sim_energy_parse, sim_energy_free},
    {"icache", sim_icache_parse, sim_icache_free},
};
enum { SECTION_COUNT = sizeof sections / sizeof sections[0] };

/* ---- strict JSON helpers ------------------------------------------------------------------- */
int sim_check_keys(const json_t *obj, const char *where, const char *const *allowed, gs_error *err)
{
    if (!json_is_object(obj))
        return gs_fail(err, GS_ERR_INPUT, "%s: must be an object", where);
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            char list[512] = "";
            for (const char *const *a = allowed; *a; a++) {
                strncat(list, *a, sizeof list - strlen(list) - 3);
                if (a[1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            return gs_fail(err, GS_ERR_INPUT, "%s.%s: unknown key; allowed keys are: %s", where,
                           key, list);
        }
    }
    return 0;
}

/* ---- ranges ---------------------------------------------------------------------------------
 * Every number a model gives is bounded to what a GPU can be, generously, so that no value makes
 * later output invalid (a clock of 1e-300 kHz) or a simulated run slow (a 65536-way level: each
 * access searches its set). The bound is found by key name, whichever section reads it. The
 * table is mirrored in docs/sim-models.md and docs/sim-model.schema.json. */
typedef struct sim_bound {
    const char *key;
    double min, max;
} sim_bound;

static const sim_bound bounds[] = {
    /* device */
    {"cc_major", 1, 99}, {"cc_minor", 0, 99}, {"sm_count", 1, 1024},
    {"clock_khz", 1e3, 1e8}, {"mem_clock_khz", 0, 1e8}, {"mem_bus_bits", 0, 65536},
    {"l2_bytes", 0, SIM_MAX_CACHE_BYTES}, {"smem_per_sm_bytes", 0, 16777216},
    {"smem_per_block_bytes", 0, 16777216}, {"smem_per_block_optin_bytes", 0, 16777216},
    {"global_mem_bytes", 0, 70368744177664.0}, {"const_mem_bytes", 0, 16777216},
    {"max_threads_per_sm", 1, 65536}, {"max_threads_per_block", 1, 65536},
    {"max_blocks_per_sm", 1, 1024}, {"regs_per_sm", 0, 16777216}, {"warp_size", 1, 64},
    {"clock64_read_cycles", 0, 1e4}, {"globaltimer_read_cycles", 0, 1e4},
    {"globaltimer_resolution_ns", 1e-3, 1e6},
    /* noise */
    {"jitter_cycles", 0, 1e5}, {"outlier_rate", 0, 1}, {"outlier_cycles", 0, 1e7},
    {"clock_wander_percent", 0, 50},
    /* memory: sizes, geometry */
    {"size_bytes", 1, SIM_MAX_CACHE_BYTES}, {"line_bytes", 4, 4096}, {"sector_bytes", 1, 4096},
    {"fetch_bytes", 1, 4096},
    {"sets", 1, SIM_MAX_SETS}, {"ways", 1, SIM_MAX_WAYS}, {"entries", 1, 1048576},
    {"data_lines", 0, 16777216},
    {"page_bytes", 1, 17179869184.0}, {"coverage_bytes", 1, 1099511627776.0},
    {"percent", 0, 100}, {"default_carveout_percent", 0, 100}, {"shared_default_percent", 0, 100},
    {"count", 1, 64}, {"interleave_bytes", 0, 1073741824}, {"transaction_bytes", 1, 4096},
    {"chase_base_bytes", 0, 1099511627776.0},
    /* memory: latencies and rates */
    {"hit_latency_cycles", 0, 1e6}, {"miss_cycles", 0, 1e6}, {"hit_cycles", 0, 1e6},
    {"miss_penalty_cycles", 0, 1e6}, {"latency_cycles", 0, 1e6}, {"far_extra_cycles", 0, 1e6},
    {"near_ways", 1, SIM_MAX_WAYS}, {"far_hit_cycles", 0, 1e6},
    {"shared_latency_cycles", 0, 1e6}, {"extra_sector_cycles", 0, 1e6},
    {"extra_line_cycles", 0, 1e6}, {"path_extra_cycles", 0, 1e6},
    {"max_accesses_per_ns", 0, 1e6},
    /* memory.dram's layout (interleave_bytes and banks above) */
    {"channels", 1, 4096}, {"row_bytes", 0, 16777216}, {"row_hit_cycles", 0, 1e6},
    {"row_miss_cycles", 0, 1e6},
    {"persisting_max_bytes", 0, SIM_MAX_CACHE_BYTES},
    {"persisting_window_max_bytes", 0, 1099511627776.0},
    /* shared-memory banks */
    {"banks", 1, 256}, {"bank_width_bytes", 1, 64}, {"conflict_cycles_per_way", 0, 1e6},
    /* pipeline */
    {"schedulers", 1, 64}, {"units_per_sm", 0, 4096}, {"completion_cycles", 0, 1e6},
    {"issue_cycles", 0, 1e6},
    /* bandwidth */
    {"dram_gbps", 0, 1e6}, {"memcpy_d2d_gbps", 0, 1e6}, {"h2d_gbps", 0, 1e6},
    {"d2h_gbps", 0, 1e6}, {"dynamic_bound_factor", 0, 1}, {"launch_overhead_us", 0, 1e6},
    {"saturating_blocks_per_sm", 0, 1024}, {"jitter_fraction", 0, 1},
    {"slow_window_every_calls", 0, 1e6}, {"slow_window_factor", 0, 1},
    /* node */
    {"devices", 1, 64}, {"gbps", 0, 1e6}, {"read_gbps", 0, 1e6}, {"write_gbps", 0, 1e6},
    {"latency_ns", 0, 1e7}, {"performance_rank", 0, 1000},
    /* atomics (latency_cycles and jitter_fraction above) */
    {"one_address_ops_per_clock", 0, 1e6}, {"one_address_ops_per_clock_per_sm", 0, 1e4},
    {"distinct_ops_per_clock_per_sm", 0, 1e4}, {"line_ops_per_clock", 0, 1e6},
    {"same_bank_ops_per_clock_per_sm", 0, 1e4},
    /* cluster */
    {"max_size", 1, 16}, {"local_latency_cycles", 0, 1e6}, {"remote_latency_cycles", 0, 1e6},
    {"local_gbps_per_sm", 0, 1e6}, {"remote_gbps_per_sm", 0, 1e6}, {"bulk_l2_gbps", 0, 1e6},
    {"bulk_dram_gbps", 0, 1e6}, {"vector_l2_gbps", 0, 1e6}, {"vector_dram_gbps", 0, 1e6},
    {"bulk_latency_base_cycles", 0, 1e6}, {"bulk_latency_cycles_per_kb", 0, 1e6},
    {"load_latency_base_cycles", 0, 1e6}, {"load_latency_cycles_per_kb", 0, 1e6},
    {"tensor_latency_base_cycles", 0, 1e6}, {"tensor_latency_cycles_per_kb", 0, 1e6},
    /* tensor (latency_cycles and jitter_fraction above) */
    {"flops_per_clock_per_sm", 0, 1e6},
    /* launch (jitter_fraction above) */
    {"stream_launch_ns", 0, 1e9}, {"graph_launch_ns", 0, 1e9}, {"complete_ns", 0, 1e9},
    {"sync_idle_ns", 0, 1e9}, {"event_round_trip_ns", 0, 1e9}, {"event_elapsed_ns", 0, 1e9},
    {"event_resolution_ns", 0, 1e6}, {"grid_sync_ns", 0, 1e9}, {"cluster_sync_ns", 0, 1e9},
    /* energy */
    {"idle_w", 0, 1e5}, {"update_ms", 0, 1e5}, {"read_ms", 0, 1e5}, {"quantum_mj", 0, 1e9},
    {"noise_mj", 0, 1e9}, {"pj", 0, 1e6}, {"giga_per_s", 0, 1e9},
};

/* Keys no row names (efficiencies "1".."16", future keys) still get a finite range. */
static const sim_bound default_bound = {"", 0, 1e9};

static const sim_bound *bound_of(const char *key)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (strcmp(bounds[i].key, key) == 0)
            return &bounds[i];
    return &default_bound;
}

int sim_check_range(const char *where, const char *key, const char *range_key, double value,
                    gs_error *err)
{
    const sim_bound *b = bound_of(range_key ? range_key : key);
    if (value >= b->min && value <= b->max)
        return 0;
    return gs_fail(err, GS_ERR_INPUT, "%s.%s: %.15g is out of range %.15g..%.15g", where, key,
                   value, b->min, b->max);
}

int sim_get_uint(const json_t *obj, const char *where, const char *key, int required,
                 uint64_t *out, gs_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return required ? gs_fail(err, GS_ERR_INPUT, "%s.%s: missing (a whole number)", where, key)
                        : 0;
    double d = json_is_integer(v) ? (double)json_integer_value(v)
             : json_is_real(v) ? json_real_value(v) : NAN;
    if (!isfinite(d) || d < 0 || d != floor(d))
        return gs_fail(err, GS_ERR_INPUT, "%s.%s: must be a whole number >= 0", where, key);
    if (sim_check_range(where, key, NULL, d, err))
        return GS_ERR_INPUT;
    *out = json_is_integer(v) ? (uint64_t)json_integer_value(v) : (uint64_t)d;
    return 0;
}

int sim_get_double(const json_t *obj, const char *where, const char *key, int required,
                   double *out, gs_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return required ? gs_fail(err, GS_ERR_INPUT, "%s.%s: missing (a number)", where, key) : 0;
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return gs_fail(err, GS_ERR_INPUT, "%s.%s: must be a number", where, key);
    if (sim_check_range(where, key, NULL, json_number_value(v), err))
        return GS_ERR_INPUT;
    *out = json_number_value(v);
    return 0;
}

int sim_get_string(const json_t *obj, const char *where, const char *key, int required,
                   const char **out, gs_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return required ? gs_fail(err, GS_ERR_INPUT, "%s.%s: missing (a string)", where, key) : 0;
    if (!json_is_string(v))
        return gs_fail(err, GS_ERR_INPUT, "%s.%s: must be a string", where, key);
    *out = json_string_value(v);
    return 0;
}

/* ---- device and noise ---------------------------------------------------------------------- */
/* "l2_counters" (default false): whether the modelled L2 counts its sector lookups for the
 * evict operation, as a card's hardware counters do where CUPTI may read them; absent or false,
 * the model is a card whose counters cannot be read, and the L2 method times its loads. */
static int parse_counters(const json_t *j, gs_device_info *d, gs_error *err)
{
    json_t *v = json_object_get(j, "l2_counters");
    if (v && !json_is_boolean(v))
        return gs_fail(err, GS_ERR_INPUT, "device.l2_counters: must be true or false");
    d->counters = v && json_is_true(v);
    snprintf(d->counters_detail, sizeof d->counters_detail, "%s",
             d->counters ? "the model's L2 counts every sector lookup"
                         : "the model has no L2 counters (its device.l2_counters is not true)");
    return 0;
}

static int parse_device(const json_t *j, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {
        "name", "cc_major", "cc_minor", "sm_count", "clock_khz", "mem_clock_khz", "mem_bus_bits",
        "l2_bytes", "smem_per_sm_bytes", "smem_per_block_bytes", "smem_per_block_optin_bytes",
        "global_mem_bytes", "const_mem_bytes", "max_threads_per_sm", "max_threads_per_block",
        "max_blocks_per_sm", "regs_per_sm", "warp_size", "clock64_read_cycles",
        "globaltimer_read_cycles", "globaltimer_resolution_ns", "l2_counters", NULL};
    gs_device_info *d = &m->info;
    const char *name = NULL;
    uint64_t u[14] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32};
    static const char *const ukeys[14] = {
        "cc_major", "cc_minor", "sm_count", "mem_bus_bits", "l2_bytes", "smem_per_sm_bytes",
        "smem_per_block_bytes", "global_mem_bytes", "const_mem_bytes", "max_threads_per_sm",
        "max_threads_per_block", "max_blocks_per_sm", "regs_per_sm", "warp_size"};
    static const int required[14] = {1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0};
    int rc = sim_check_keys(j, "device", keys, err);
    if (!rc)
        rc = sim_get_string(j, "device", "name", 1, &name, err);
    for (int i = 0; i < 14 && !rc; i++)
        rc = sim_get_uint(j, "device", ukeys[i], required[i], &u[i], err);
    if (!rc)
        rc = sim_get_double(j, "device", "clock_khz", 1, &d->sm_clock_khz, err);
    if (!rc)
        rc = sim_get_double(j, "device", "mem_clock_khz", 0, &d->mem_clock_khz, err);
    if (rc)
        return rc;
    if (u[2] == 0 || d->sm_clock_khz <= 0 || u[13] == 0 || u[13] > 64)
        return gs_fail(err, GS_ERR_INPUT, "device: sm_count and clock_khz must be > 0 and "
                       "warp_size 1..64");
    gs_utf8_copy(d->name, sizeof d->name, name);
    d->cc_major = (int)u[0];
    d->cc_minor = (int)u[1];
    d->sm_count = (int)u[2];
    d->mem_bus_bits = (int)u[3];
    d->l2_bytes = u[4];
    d->smem_per_sm_bytes = u[5];
    d->smem_per_block_bytes = u[6];
    d->smem_per_block_optin_bytes = u[6];
    d->global_mem_bytes = u[7];
    d->global_mem_free_bytes = u[7];
    d->const_mem_bytes = u[8];
    d->max_threads_per_sm = (int)u[9];
    d->max_threads_per_block = (int)u[10];
    d->max_blocks_per_sm = (int)u[11];
    d->regs_per_sm = (int)u[12];
    d->warp_size = (int)u[13];
    d->node_devices = 1;          /* a "node" section says otherwise */
    uint64_t optin = d->smem_per_block_optin_bytes;
    rc = sim_get_uint(j, "device", "smem_per_block_optin_bytes", 0, &optin, err);
    d->smem_per_block_optin_bytes = optin;
    m->globaltimer_resolution_ns = 1;
    if (!rc)
        rc = sim_get_double(j, "device", "clock64_read_cycles", 0, &m->clock64_read_cycles, err);
    if (!rc)
        rc = sim_get_double(j, "device", "globaltimer_read_cycles", 0, &m->globaltimer_read_cycles,
                            err);
    if (!rc)
        rc = sim_get_double(j, "device", "globaltimer_resolution_ns", 0,
                            &m->globaltimer_resolution_ns, err);
    if (!rc)
        rc = parse_counters(j, d, err);
    if (!rc && (m->clock64_read_cycles < 0 || m->globaltimer_read_cycles < 0 ||
                m->globaltimer_resolution_ns <= 0))
        rc = gs_fail(err, GS_ERR_INPUT, "device: read costs must be >= 0 and "
                     "globaltimer_resolution_ns > 0");
    return rc;
}

static int parse_noise(const json_t *j, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"jitter_cycles", "outlier_rate", "outlier_cycles",
                                       "clock_wander_percent", NULL};
    int rc = sim_check_keys(j, "noise", keys, err);
    if (!rc)
        rc = sim_get_double(j, "noise", "jitter_cycles", 0, &m->noise_cycles, err);
    if (!rc)
        rc = sim_get_double(j, "noise", "outlier_rate", 0, &m->noise_outlier_rate, err);
    if (!rc)
        rc = sim_get_double(j, "noise", "outlier_cycles", 0, &m->noise_outlier_cycles, err);
    if (!rc)
        rc = sim_get_double(j, "noise", "clock_wander_percent", 0, &m->clock_wander_percent, err);
    if (rc)
        return rc;
    if (m->noise_cycles < 0 || m->noise_outlier_rate < 0 || m->noise_outlier_rate > 1 ||
        m->noise_outlier_cycles < 0 || m->clock_wander_percent < 0 || m->clock_wander_percent > 50)
        return gs_fail(err, GS_ERR_INPUT, "noise: jitter_cycles and outlier_cycles must be >= 0, "
                       "outlier_rate in [0, 1], clock_wander_percent in [0, 50]");
    return 0;
}

/* ---- files --------------------------------------------------------------------------------- */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int gs_sim_models_dir(char *buf, size_t len, gs_error *err)
{
    const char *env = getenv("GS_MODELS_DIR");
    if (env && *env) {
        if (!is_dir(env))
            return gs_fail(err, GS_ERR_INPUT, "GS_MODELS_DIR=%s is not a folder", env);
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(buf, len, "%s/../share/gpusonar/models", exe) < (int)len && is_dir(buf))
                return 0;
        }
    }
#ifdef GS_SOURCE_DIR
    if (snprintf(buf, len, "%s/models", GS_SOURCE_DIR) < (int)len && is_dir(buf))
        return 0;
#endif
    return gs_fail(err, GS_ERR_INPUT, "cannot find the built-in models folder; set GS_MODELS_DIR "
                   "to gpusonar's models/ folder");
}

/* " (did you mean 'NAME'?)" for a model name near name among the built-in ones, or "". */
static const char *suggest_model(const char *dir, const char *name, char *buf, size_t len)
{
    gs_suggest sg;
    char best[256];
    gs_suggest_init(&sg, name);
    buf[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return buf;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || n - 5 >= sizeof best || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        gs_suggest_offer(&sg, e->d_name, n - 5);
        if (sg.best == e->d_name) {                  /* the entry is reused by readdir: copy */
            memcpy(best, e->d_name, n - 5);
            sg.best = best;
        }
    }
    closedir(d);
    return gs_suggest_text(&sg, NULL, buf, len);
}

static int resolve_path(const char *name_or_path, char *path, size_t len, gs_error *err)
{
    size_t n = strlen(name_or_path);
    if (strchr(name_or_path, '/') || (n > 5 && strcmp(name_or_path + n - 5, ".json") == 0)) {
        snprintf(path, len, "%s", name_or_path);
        return 0;
    }
    char dir[PATH_MAX];
    int rc = gs_sim_models_dir(dir, sizeof dir, err);
    if (rc)
        return rc;
    if (snprintf(path, len, "%s/%s.json", dir, name_or_path) >= (int)len)
        return gs_fail(err, GS_ERR_USAGE, "model name '%s' is too long", name_or_path);
    if (access(path, R_OK) != 0) {
        char hint[96];
        return gs_fail(err, GS_ERR_USAGE, "no built-in simulator model '%s'%s; 'gpusonar models' "
                       "lists them, or give a model file as sim:FILE.json", name_or_path,
                       suggest_model(dir, name_or_path, hint, sizeof hint));
    }
    return 0;
}

static int parse_top(const json_t *root, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"name", "description", "device", "noise", "memory",
                                       "shared_memory", "pipeline", "bandwidth", "node", "atomics",
                                       "cluster", "tensor", "launch", "energy", "icache",
                                       NULL};
    const char *name = NULL, *desc = "";
    int rc = sim_check_keys(root, "model", keys, err);
    if (!rc)
        rc = sim_get_string(root, "model", "name", 1, &name, err);
    if (!rc)
        rc = sim_get_string(root, "model", "description", 0, &desc, err);
    if (rc)
        return rc;
    gs_utf8_copy(m->name, sizeof m->name, name);
    gs_utf8_copy(m->description, sizeof m->description, desc);
    json_t *dev = json_object_get(root, "device");
    if (!dev)
        return gs_fail(err, GS_ERR_INPUT, "model.device: missing (the simulated GPU's properties)");
    if ((rc = parse_device(dev, m, err)))
        return rc;
    json_t *noise = json_object_get(root, "noise");
    if (noise && (rc = parse_noise(noise, m, err)))
        return rc;
    for (int i = 0; i < SECTION_COUNT; i++) {
        json_t *s = json_object_get(root, sections[i].key);
        if (s && (rc = sections[i].parse(s, sections[i].key, m, err)))
            return rc;
    }
    return 0;
}

int gs_sim_model_load(const char *name_or_path, uint64_t seed, gs_sim_model **out, gs_error *err)
{
    char path[PATH_MAX];
    *out = NULL;
    int rc = resolve_path(name_or_path, path, sizeof path, err);
    if (rc)
        return rc;
    json_error_t je;
    char *text;
    size_t len;
    if ((rc = gs_input_read(path, "model file", &text, &len, err)))
        return rc;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!root)
        return gs_fail(err, GS_ERR_INPUT, "model file %s:%d:%d: %s", path, je.line, je.column,
                       je.text);
    gs_sim_model *m = calloc(1, sizeof *m);
    if (!m) {
        json_decref(root);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory loading '%s'", path);
    }
    gs_utf8_copy(m->source, sizeof m->source, name_or_path);      /* a path may be any bytes */
    gs_rng_seed(&m->rng, seed);
    rc = parse_top(root, m, err);
    json_decref(root);
    if (rc) {
        char inner[sizeof err->msg];
        snprintf(inner, sizeof inner, "%s", err->msg);
        gs_fail(err, (gs_status)rc, "model %s: %s", path, inner);
        gs_sim_model_free(m);
        return rc;
    }
    snprintf(m->info.backend, sizeof m->info.backend, "sim");
    gs_utf8_copy(m->info.model, sizeof m->info.model, name_or_path);
    m->info.simulated = true;
    *out = m;
    return 0;
}

/* The same as gs_sim_model_load on a model held in memory (the fuzzer's entry point); source names
 * it in messages and in info.model. */
int gs_sim_model_load_buffer(const char *text, size_t len, const char *source, uint64_t seed,
                             gs_sim_model **out, gs_error *err)
{
    json_error_t je;
    *out = NULL;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return gs_fail(err, GS_ERR_INPUT, "model %s:%d:%d: %s", source, je.line, je.column, je.text);
    gs_sim_model *m = calloc(1, sizeof *m);
    if (m)
        gs_rng_seed(&m->rng, seed);
    int rc = m ? parse_top(root, m, err) : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    json_decref(root);
    if (rc) {
        gs_sim_model_free(m);
        return rc;
    }
    snprintf(m->source, sizeof m->source, "%s", source);
    snprintf(m->info.backend, sizeof m->info.backend, "sim");
    snprintf(m->info.model, sizeof m->info.model, "%s", source);
    m->info.simulated = true;
    *out = m;
    return 0;
}

void gs_sim_model_free(gs_sim_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < SECTION_COUNT; i++)
        sections[i].free(m);
    free(m);
}
