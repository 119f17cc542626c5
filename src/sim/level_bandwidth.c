/* Simulator: the "levels" object of a model's "bandwidth" section (docs/sim-models.md) and the
 * level-bandwidth kinds of the stream operation (probe mem-bandwidth). The model states one
 * device-wide rate per level a sweep can be served from (L1, L2, shared memory) and per kind for
 * DRAM; a plan is served by the level its footprint falls in: the footprint each SM sees (all the
 * arrays for a blocks sweep, 1/SMs of them for a grid sweep) against the model's L1 (the
 * per-SM cache level of the default load path in "memory"), and all the arrays against the
 * device's l2_bytes. A repetition takes overhead + bytes moved / rate, with seeded relative
 * jitter; gpu-stream's launch order (GS_SWEEP_LAUNCHES) pays the overhead once per pass (a launch
 * each) and runs from DRAM at "launch_order_dram_gbps" where the model gives it (no width
 * efficiency: the rate of that kernel as it is), else as the other orders. The strided read
 * (probe dram-layout) runs at the DRAM read rate times the share of the DRAM channels it keeps
 * busy (dram.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/sim.h"

#define KINDS 6                   /* read, write, copy, scale, add, triad */
#define WIDTHS 3                  /* 4, 8, 16 bytes */

struct sim_level_bandwidth {
    double l1_gbps, l2_gbps, smem_gbps;
    double dram_gbps[KINDS];
    double launch_dram_gbps[KINDS];  /* GS_SWEEP_LAUNCHES from DRAM at any element width (0: not
                                        given, dram_gbps x efficiency) */
    double width_efficiency[WIDTHS];
    int stores_bypass_l1;         /* stores are served at the L2 rate with a footprint in L1 */
    double launch_overhead_us;
    double jitter_fraction;
};

static const char *const kind_keys[KINDS] = { "read", "write", "copy", "scale", "add", "triad" };

static int positive(const json_t *obj, const char *where, const char *key, int required,
                    double *out, gs_error *err)
{
    int rc = sim_get_double(obj, where, key, required, out, err);
    if (rc == 0 && !(*out > 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: %g must be positive", where, key, *out);
    return rc;
}

/* {"read": r, "write": w, "copy": c, "scale": s, "add": a, "triad": t}, GB/s each. */
static int parse_dram(const json_t *obj, const char *where, double *out, gs_error *err)
{
    static const char *const keys[] = { "read", "write", "copy", "scale", "add", "triad", NULL };
    int rc = sim_check_keys(obj, where, keys, err);
    for (int k = 0; rc == 0 && k < KINDS; k++)
        rc = positive(obj, where, kind_keys[k], 1, &out[k], err);
    return rc;
}

/* {"4": e, "8": e, "16": e}, each in (0, 1]; absent: 1. */
static int parse_widths(const json_t *obj, const char *where, double *out, gs_error *err)
{
    static const char *const keys[] = { "4", "8", "16", NULL };
    int rc = sim_check_keys(obj, where, keys, err);
    for (int w = 0; rc == 0 && w < WIDTHS; w++) {
        rc = sim_get_double(obj, where, keys[w], 1, &out[w], err);
        if (rc == 0 && !(out[w] > 0 && out[w] <= 1))
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: efficiency %g is not in (0, 1]", where,
                         keys[w], out[w]);
    }
    return rc;
}

static int parse_fields(const json_t *json, const char *where, struct sim_level_bandwidth *lb,
                        gs_error *err)
{
    char path[320];
    const json_t *v;
    int rc = positive(json, where, "l1_gbps", 1, &lb->l1_gbps, err);
    if (rc == 0)
        rc = positive(json, where, "l2_gbps", 1, &lb->l2_gbps, err);
    if (rc == 0)
        rc = positive(json, where, "smem_gbps", 1, &lb->smem_gbps, err);
    if (rc == 0) {
        snprintf(path, sizeof path, "%s.dram_gbps", where);
        rc = parse_dram(json_object_get(json, "dram_gbps"), path, lb->dram_gbps, err);
    }
    if (rc == 0 && (v = json_object_get(json, "launch_order_dram_gbps")) != NULL) {
        snprintf(path, sizeof path, "%s.launch_order_dram_gbps", where);
        rc = parse_dram(v, path, lb->launch_dram_gbps, err);
    }
    if (rc == 0 && (v = json_object_get(json, "width_efficiency")) != NULL) {
        snprintf(path, sizeof path, "%s.width_efficiency", where);
        rc = parse_widths(v, path, lb->width_efficiency, err);
    }
    if (rc == 0 && (v = json_object_get(json, "stores_bypass_l1")) != NULL) {
        if (!json_is_boolean(v))
            return gs_fail(err, GS_ERR_INPUT, "%s.stores_bypass_l1: must be true or false", where);
        lb->stores_bypass_l1 = json_is_true(v);
    }
    if (rc == 0)
        rc = sim_get_double(json, where, "launch_overhead_us", 0, &lb->launch_overhead_us, err);
    if (rc == 0)
        rc = sim_get_double(json, where, "jitter_fraction", 0, &lb->jitter_fraction, err);
    if (rc == 0 && (lb->launch_overhead_us < 0 || lb->jitter_fraction < 0 ||
                    lb->jitter_fraction >= 1))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: launch_overhead_us must be >= 0 and "
                     "jitter_fraction in [0, 1)", where);
    return rc;
}

int sim_level_bandwidth_parse(const json_t *json, const char *where, gs_sim_model *m,
                              gs_error *err)
{
    static const char *const keys[] = { "comment", "l1_gbps", "l2_gbps", "smem_gbps",
        "dram_gbps", "launch_order_dram_gbps", "width_efficiency", "stores_bypass_l1",
        "launch_overhead_us", "jitter_fraction", NULL };
    int rc = sim_check_keys(json, where, keys, err);
    if (rc)
        return rc;
    struct sim_level_bandwidth *lb = calloc(1, sizeof *lb);
    if (!lb)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of memory", where);
    for (int w = 0; w < WIDTHS; w++)
        lb->width_efficiency[w] = 1;
    lb->stores_bypass_l1 = 1;
    rc = parse_fields(json, where, lb, err);
    if (rc) {
        free(lb);
        return rc;
    }
    free(m->level_bandwidth);
    m->level_bandwidth = lb;
    return 0;
}

void sim_level_bandwidth_free(gs_sim_model *m)
{
    free(m->level_bandwidth);
    m->level_bandwidth = NULL;
}

/* The model's L1: the first per-SM cache level on the default load path; 0 when it has none. */
static uint64_t l1_bytes(const gs_sim_model *m)
{
    if (!m->memory)
        return 0;
    for (unsigned i = 0; i < m->memory->n_caches; i++) {
        const sim_level *l = &m->memory->caches[i];
        if (l->per_sm && (l->paths & (1u << GS_PATH_DEFAULT)))
            return l->geo.size_bytes;
    }
    return 0;
}

/* Arrays a level kind touches (backend.h): read and write 1, copy and scale 2, add and triad 3. */
static int arrays_of(gs_stream_kind kind)
{
    static const int arrays[KINDS] = { 1, 1, 2, 2, 3, 3 };
    return arrays[gs_stream_level_index(kind)];
}

/* GB/s of a level kind whose arrays take footprint_bytes in all. */
static double level_rate(const gs_sim_model *m, const gs_stream_plan *plan,
                         uint64_t footprint_bytes)
{
    const struct sim_level_bandwidth *lb = m->level_bandwidth;
    int k = gs_stream_level_index(plan->kind);
    int w = plan->element_bytes == 4 ? 0 : plan->element_bytes == 8 ? 1 : 2;
    double per_sm = plan->sweep == GS_SWEEP_BLOCKS ? (double)footprint_bytes
                                                   : (double)footprint_bytes / m->info.sm_count;
    uint64_t l1 = l1_bytes(m);
    double gbps;
    if (l1 > 0 && per_sm <= (double)l1 && !(plan->kind != GS_STREAM_LEVEL_READ &&
                                            lb->stores_bypass_l1))
        gbps = lb->l1_gbps;
    else if (footprint_bytes <= m->info.l2_bytes)
        gbps = lb->l2_gbps;
    else if (plan->sweep == GS_SWEEP_LAUNCHES && lb->launch_dram_gbps[k] > 0)
        return lb->launch_dram_gbps[k];       /* the model's rate of that kernel as it is */
    else
        gbps = lb->dram_gbps[k];
    return gbps * lb->width_efficiency[w];
}

static int check_plan(const gs_sim_model *m, const gs_stream_plan *plan, gs_error *err)
{
    unsigned e = plan->element_bytes;
    if (!m->level_bandwidth)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no \"bandwidth\".\"levels\" "
                       "section: it cannot run level-bandwidth plans", m->name);
    if (gs_stream_kind_family(plan->kind) == GS_STREAM_FAMILY_PLAIN ||
        gs_stream_kind_family(plan->kind) == GS_STREAM_FAMILY_NONE)
        return gs_fail(err, GS_ERR_USAGE, "stream: unknown level kind %d", (int)plan->kind);
    if (plan->kind == GS_STREAM_STRIDED_READ &&
        (e != 16 || plan->chunk_bytes < 16 || plan->chunk_bytes % 16 || plan->stride_bytes % 16 ||
         plan->stride_bytes < plan->chunk_bytes || plan->bytes < plan->stride_bytes))
        return gs_fail(err, GS_ERR_USAGE, "stream: a strided read takes 16-byte elements and "
                       "16 <= chunk <= stride <= bytes, multiples of 16 (chunk %llu, stride %llu, "
                       "bytes %llu)", (unsigned long long)plan->chunk_bytes,
                       (unsigned long long)plan->stride_bytes, (unsigned long long)plan->bytes);
    if (plan->kind != GS_STREAM_SMEM_READ && e != 4 && e != 8 && e != 16)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: level kinds take 4-, 8- or 16-byte "
                       "elements, not %u", e);
    if (plan->repeats == 0 || plan->bytes < (e ? e : 1))
        return gs_fail(err, GS_ERR_USAGE, "stream: a plan needs repeats > 0 and bytes of one "
                       "element at least");
    if (plan->variant)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: the simulator has one L1 read kernel "
                       "(variant 0), not %u", plan->variant);
    return 0;
}

int sim_level_stream(gs_sim_model *m, const gs_stream_plan *plan, gs_stream_result *out,
                     gs_error *err)
{
    int rc = check_plan(m, plan, err);
    if (rc)
        return rc;
    if (!out->seconds)
        return gs_fail(err, GS_ERR_USAGE, "stream: a plan needs a seconds array");
    const struct sim_level_bandwidth *lb = m->level_bandwidth;
    uint64_t per_pass, footprint = 0;
    double gbps;
    if (plan->kind == GS_STREAM_SMEM_READ) {
        per_pass = (uint64_t)m->info.sm_count * plan->bytes;
        gbps = lb->smem_gbps;
    } else if (plan->kind == GS_STREAM_STRIDED_READ) {
        /* Always from DRAM (the L2 is not modelled here), limited to the channels it touches. */
        per_pass = plan->bytes / plan->stride_bytes * plan->chunk_bytes;
        gbps = lb->dram_gbps[0] * lb->width_efficiency[2];
        if (m->memory)
            gbps *= sim_dram_strided_share(&m->memory->dram, plan->bytes, plan->stride_bytes,
                                           plan->chunk_bytes);
    } else {
        uint64_t elements = plan->bytes / plan->element_bytes;
        footprint = (uint64_t)arrays_of(plan->kind) * elements * plan->element_bytes;
        per_pass = footprint * (plan->sweep == GS_SWEEP_BLOCKS ? (uint64_t)m->info.sm_count : 1);
        gbps = level_rate(m, plan, footprint);
    }
    uint64_t passes = (plan->traffic_bytes + per_pass - 1) / per_pass;
    passes = passes < 1 ? 1 : passes;
    out->bytes_moved = passes * per_pass;
    double launches = plan->sweep == GS_SWEEP_LAUNCHES && footprint ? (double)passes : 1;
    double base_s = launches * lb->launch_overhead_us * 1e-6 +
                    (double)out->bytes_moved / (gbps * 1e9);
    for (unsigned r = 0; r < plan->repeats; r++)
        out->seconds[r] = base_s * (1 + lb->jitter_fraction * gs_rng_unit(&m->rng));
    out->n = plan->repeats;
    return 0;
}
