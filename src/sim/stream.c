/* Simulator: the "bandwidth" section of a model file (docs/sim-models.md) and the stream
 * operation. The model is a roofline of bytes: DRAM bandwidth times an efficiency per element size
 * and loop style for the copy and read kernels, the rates of cudaMemcpy and of PCIe, a launch
 * overhead, and optional relative jitter. A repetition takes overhead + bytes moved / rate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define ELEMENT_SIZES 5

struct sim_bandwidth {
    double dram_gbps;                         /* rate at efficiency 1 (bytes read + written) */
    double copy_efficiency[ELEMENT_SIZES];    /* per element size 1, 2, 4, 8, 16 (constant bound) */
    double read_efficiency[ELEMENT_SIZES];
    double dynamic_bound_factor;              /* efficiency multiplier with a run-time loop bound */
    double memcpy_d2d_gbps, h2d_gbps, d2h_gbps;
    double launch_overhead_us;
    double saturating_blocks_per_sm;          /* 0: any grid saturates; else rate scales with
                                                 blocks / (sm_count * this) below it */
    double jitter_fraction;                   /* uniform relative noise on each repetition */
    double slow_window_every_calls;           /* every this-many-th stream call runs all its
                                                 repetitions at slow_window_factor of the rate
                                                 (0: never): a card's slow window over one
                                                 configuration's repetitions */
    double slow_window_factor;
    unsigned long long calls;                 /* stream calls answered so far */
};

static const unsigned element_sizes[ELEMENT_SIZES] = { 1, 2, 4, 8, 16 };

static int element_index(unsigned bytes)
{
    for (int i = 0; i < ELEMENT_SIZES; i++)
        if (element_sizes[i] == bytes)
            return i;
    return -1;
}

/* {"1": e, "2": e, "4": e, "8": e, "16": e}, each in (0, 1]. */
static int parse_efficiency(const json_t *obj, const char *where, double *out, gs_error *err)
{
    static const char *const keys[] = { "1", "2", "4", "8", "16", NULL };
    if (!json_is_object(obj))
        return gs_fail(err, GS_ERR_INPUT, "%s: expected an object {\"1\": .., \"16\": ..}", where);
    int rc = sim_check_keys(obj, where, keys, err);
    for (int i = 0; rc == 0 && i < ELEMENT_SIZES; i++) {
        rc = sim_get_double(obj, where, keys[i], 1, &out[i], err);
        if (rc == 0 && !(out[i] > 0 && out[i] <= 1))
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: efficiency %g is not in (0, 1]", where,
                         keys[i], out[i]);
    }
    return rc;
}

static int parse_rates(const json_t *json, const char *where, struct sim_bandwidth *bw,
                       gs_error *err)
{
    struct { const char *key; double *target; int required; } rates[] = {
        { "dram_gbps", &bw->dram_gbps, 1 },
        { "memcpy_d2d_gbps", &bw->memcpy_d2d_gbps, 1 },
        { "h2d_gbps", &bw->h2d_gbps, 1 },
        { "d2h_gbps", &bw->d2h_gbps, 1 },
        { "dynamic_bound_factor", &bw->dynamic_bound_factor, 0 },
        { "launch_overhead_us", &bw->launch_overhead_us, 0 },
        { "saturating_blocks_per_sm", &bw->saturating_blocks_per_sm, 0 },
        { "jitter_fraction", &bw->jitter_fraction, 0 },
        { "slow_window_every_calls", &bw->slow_window_every_calls, 0 },
        { "slow_window_factor", &bw->slow_window_factor, 0 },
    };
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        int rc = sim_get_double(json, where, rates[i].key, rates[i].required, rates[i].target, err);
        if (rc != 0)
            return rc;
        if (*rates[i].target < 0 || (rates[i].required && *rates[i].target == 0))
            return gs_fail(err, GS_ERR_INPUT, "%s.%s: %g must be %s", where, rates[i].key,
                           *rates[i].target, rates[i].required ? "positive" : "non-negative");
    }
    if (bw->dynamic_bound_factor > 1 || bw->jitter_fraction >= 1)
        return gs_fail(err, GS_ERR_INPUT, "%s: dynamic_bound_factor must be in (0, 1] and "
                       "jitter_fraction in [0, 1)", where);
    if (bw->slow_window_every_calls != floor(bw->slow_window_every_calls) ||
        (bw->slow_window_every_calls > 0 && !(bw->slow_window_factor > 0 &&
                                              bw->slow_window_factor <= 1)))
        return gs_fail(err, GS_ERR_INPUT, "%s: slow_window_every_calls must be a whole number "
                       "and, when it is not 0, slow_window_factor in (0, 1]", where);
    return 0;
}

int sim_bandwidth_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = { "comment", "dram_gbps", "copy_efficiency",
        "read_efficiency", "dynamic_bound_factor", "memcpy_d2d_gbps", "h2d_gbps", "d2h_gbps",
        "launch_overhead_us", "saturating_blocks_per_sm", "jitter_fraction",
        "slow_window_every_calls", "slow_window_factor", "levels", NULL };
    char path[300];
    if (!json_is_object(json))
        return gs_fail(err, GS_ERR_INPUT, "%s: expected an object", where);
    struct sim_bandwidth *bw = calloc(1, sizeof(*bw));
    if (!bw)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of memory", where);
    bw->dynamic_bound_factor = 1.0;
    int rc = sim_check_keys(json, where, keys, err);
    if (rc == 0)
        rc = parse_rates(json, where, bw, err);
    if (rc == 0) {
        snprintf(path, sizeof(path), "%s.copy_efficiency", where);
        rc = parse_efficiency(json_object_get(json, "copy_efficiency"), path, bw->copy_efficiency,
                              err);
    }
    if (rc == 0 && json_object_get(json, "read_efficiency")) {
        snprintf(path, sizeof(path), "%s.read_efficiency", where);
        rc = parse_efficiency(json_object_get(json, "read_efficiency"), path, bw->read_efficiency,
                              err);
    } else if (rc == 0) {
        memcpy(bw->read_efficiency, bw->copy_efficiency, sizeof(bw->read_efficiency));
    }
    if (rc == 0 && json_object_get(json, "levels")) {      /* level_bandwidth.c */
        snprintf(path, sizeof(path), "%s.levels", where);
        rc = sim_level_bandwidth_parse(json_object_get(json, "levels"), path, m, err);
    }
    if (rc == 0 && bw->dynamic_bound_factor == 0)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.dynamic_bound_factor: must be positive", where);
    if (rc != 0) {
        free(bw);
        return rc;
    }
    free(m->bandwidth);
    m->bandwidth = bw;
    return 0;
}

void sim_bandwidth_free(gs_sim_model *m)
{
    free(m->bandwidth);
    m->bandwidth = NULL;
    sim_level_bandwidth_free(m);
}

/* Bytes per second that one repetition of plan runs at, and the bytes it moves. */
static double stream_rate(const gs_sim_model *m, const gs_stream_plan *plan, int e,
                          uint64_t *bytes_moved)
{
    const struct sim_bandwidth *bw = m->bandwidth;
    double gbps;
    switch (plan->kind) {
    case GS_STREAM_COPY:
    case GS_STREAM_READ: {
        bool copy = plan->kind == GS_STREAM_COPY;
        gbps = bw->dram_gbps * (copy ? bw->copy_efficiency[e] : bw->read_efficiency[e]);
        if (plan->dynamic_bound)
            gbps *= bw->dynamic_bound_factor;
        double full_blocks = bw->saturating_blocks_per_sm * m->info.sm_count;
        if (plan->blocks > 0 && full_blocks > 0 && plan->blocks < full_blocks)
            gbps *= plan->blocks / full_blocks;
        *bytes_moved = copy ? 2 * plan->bytes : plan->bytes;
        break;
    }
    case GS_STREAM_MEMCPY_D2D:
        gbps = bw->memcpy_d2d_gbps;
        *bytes_moved = 2 * plan->bytes;
        break;
    case GS_STREAM_MEMCPY_H2D:
        gbps = bw->h2d_gbps;
        *bytes_moved = plan->bytes;
        break;
    default:
        gbps = bw->d2h_gbps;
        *bytes_moved = plan->bytes;
        break;
    }
    return gbps * 1e9;
}

int sim_stream(gs_sim_model *m, const gs_stream_plan *plan, gs_stream_result *out, gs_error *err)
{
    if (!m->bandwidth)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no \"bandwidth\" section: it "
                       "cannot run stream plans", m->name);
    int e = element_index(plan->element_bytes);
    if (e < 0 && (plan->kind == GS_STREAM_COPY || plan->kind == GS_STREAM_READ))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: element size %u bytes is not one of 1, "
                       "2, 4, 8, 16", plan->element_bytes);
    if (gs_stream_kind_family(plan->kind) != GS_STREAM_FAMILY_PLAIN || plan->bytes == 0 || plan->repeats == 0 ||
        !out->seconds)
        return gs_fail(err, GS_ERR_USAGE, "stream: bad plan (kind %d, %llu bytes, %u repeats)",
                       (int)plan->kind, (unsigned long long)plan->bytes, plan->repeats);
    if (e < 0)
        e = 0;
    double rate = stream_rate(m, plan, e, &out->bytes_moved);
    struct sim_bandwidth *bw = m->bandwidth;
    bw->calls++;
    if (bw->slow_window_every_calls > 0 &&
        bw->calls % (unsigned long long)bw->slow_window_every_calls == 0)
        rate *= bw->slow_window_factor;
    double base_s = m->bandwidth->launch_overhead_us * 1e-6 + (double)out->bytes_moved / rate;
    for (unsigned r = 0; r < plan->repeats; r++) {
        double jitter = m->bandwidth->jitter_fraction * gs_rng_unit(&m->rng);
        out->seconds[r] = base_s * (1 + jitter);
    }
    out->n = plan->repeats;
    return 0;
}
