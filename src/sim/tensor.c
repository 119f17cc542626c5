/* Simulator: the "tensor" section of a model file (docs/sim-models.md) and the mma operation
 * (plan.h, gs_mma_plan). Per instruction ("mma_sync", "wgmma", "mma_sp") and input type ("f16", "bf16",
 * "tf32", "e4m3", "e5m2", "s8", "f64"; those the instruction has, gs_mma_shape) the section gives
 * the latency of one dependent instruction in cycles and the rate of a saturated SM in flops
 * (s8: integer operations) per clock (mma_sp: the dense product's operations, as the probe counts
 * them). A chain repetition takes latency + the model's cycle noise
 * per instruction; a throughput launch takes flops / (rate x SMs used x clock) seconds, stretched
 * by up to the section's jitter_fraction. A model without the section has no tensor unit; a
 * combination the model's compute capability lacks (gs_mma_applicable), or one the section does
 * not give, answers GS_ERR_UNSUPPORTED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

typedef struct tensor_entry {
    double latency_cycles;        /* NAN: not given */
    double flops_per_clock_per_sm;
} tensor_entry;

struct sim_tensor {
    double jitter_fraction;
    tensor_entry entry[GS_MMA_INSTR_COUNT][GS_MMA_TYPE_COUNT];
};

static int parse_entry(const json_t *j, const char *where, tensor_entry *e, gs_error *err)
{
    static const char *const keys[] = {"latency_cycles", "flops_per_clock_per_sm", NULL};
    int rc = sim_check_keys(j, where, keys, err);
    if (!rc)
        rc = sim_get_double(j, where, "latency_cycles", 0, &e->latency_cycles, err);
    if (!rc)
        rc = sim_get_double(j, where, "flops_per_clock_per_sm", 0, &e->flops_per_clock_per_sm, err);
    if (!rc && (e->latency_cycles == 0 || e->flops_per_clock_per_sm == 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: latency_cycles and flops_per_clock_per_sm must be > 0 "
                     "(leave one out: the model does not say)", where);
    return rc;
}

static int parse_instr(const json_t *j, const char *where, gs_mma_instr i, struct sim_tensor *t,
                       gs_error *err)
{
    const char *key;
    json_t *v;
    if (!json_is_object(j))
        return gs_fail(err, GS_ERR_INPUT, "%s: must be an object", where);
    json_object_foreach((json_t *)j, key, v) {
        char path[160];
        unsigned m, n, k;
        int type = -1;
        for (int ty = 0; ty < GS_MMA_TYPE_COUNT; ty++)
            if (strcmp(key, gs_mma_type_name((gs_mma_type)ty)) == 0)
                type = ty;
        snprintf(path, sizeof path, "%s.%.40s", where, key);
        if (type < 0 || !gs_mma_shape(i, (gs_mma_type)type, &m, &n, &k))
            return gs_fail(err, GS_ERR_INPUT, "%s: unknown key; %s", path, i == GS_MMA_WGMMA
                           ? "use f16, bf16, tf32, e4m3, e5m2 or s8 (wgmma has no f64)"
                           : i == GS_MMA_SP
                           ? "use f16, bf16, tf32, e4m3 or s8 (mma_sp has no f64 and no e5m2)"
                           : "use f16, bf16, tf32, e4m3, s8 or f64 (mma_sync has no e5m2)");
        int rc = parse_entry(v, path, &t->entry[i][type], err);
        if (rc)
            return rc;
    }
    return 0;
}

int sim_tensor_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "jitter_fraction", "mma_sync", "wgmma", "mma_sp",
                                       NULL};
    struct sim_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    for (int i = 0; i < GS_MMA_INSTR_COUNT; i++)
        for (int ty = 0; ty < GS_MMA_TYPE_COUNT; ty++)
            t->entry[i][ty] = (tensor_entry){NAN, NAN};
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = sim_get_double(json, where, "jitter_fraction", 0, &t->jitter_fraction, err);
    if (!rc && t->jitter_fraction >= 1)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.jitter_fraction: must be in [0, 1)", where);
    for (int i = 0; i < GS_MMA_INSTR_COUNT && !rc; i++) {
        const char *name = gs_mma_instr_name((gs_mma_instr)i);
        json_t *sec = json_object_get(json, name);
        char path[64];
        snprintf(path, sizeof path, "%s.%s", where, name);
        if (sec)
            rc = parse_instr(sec, path, (gs_mma_instr)i, t, err);
    }
    if (rc) {
        free(t);
        return rc;
    }
    sim_tensor_free(m);
    m->tensor = t;
    return 0;
}

void sim_tensor_free(gs_sim_model *m)
{
    free(m->tensor);
    m->tensor = NULL;
}

/* ---- the mma operation ------------------------------------------------------------------------ */
static int check_plan(const gs_sim_model *m, const gs_mma_plan *p, gs_error *err)
{
    char why[160];
    if (!m->tensor)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no tensor unit (model '%s' has no "
                       "\"tensor\" section)", m->name);
    if (!gs_mma_applicable(p->instr, p->type, m->info.cc_major, m->info.cc_minor, why, sizeof why))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "not applicable: %s", why);
    if (p->repeats < 1 ||
        (!p->latency && (p->blocks < 1 || p->warps_per_block < 1 || p->iterations < 1 ||
                         (p->instr == GS_MMA_WGMMA && p->warps_per_block % 4))))
        return gs_fail(err, GS_ERR_USAGE, "mma plan: repeats, blocks, warps_per_block and "
                       "iterations must be >= 1 (wgmma: warps a multiple of 4)");
    return 0;
}

int sim_mma(gs_sim_model *m, const gs_mma_plan *p, gs_mma_result *out, gs_error *err)
{
    int rc = check_plan(m, p, err);
    if (rc)
        return rc;
    const tensor_entry *e = &m->tensor->entry[p->instr][p->type];
    double v = p->latency ? e->latency_cycles : e->flops_per_clock_per_sm;
    if (isnan(v))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model gives no tensor.%s.%s.%s",
                       gs_mma_instr_name(p->instr), gs_mma_type_name(p->type),
                       p->latency ? "latency_cycles" : "flops_per_clock_per_sm");
    out->clock_khz = m->info.sm_clock_khz;
    out->flops = 0;
    if (p->latency) {
        for (unsigned r = 0; r < p->repeats; r++)
            out->values[r] = v + gs_sim_noise(m);
    } else {
        unsigned mm, nn, kk;
        gs_mma_shape(p->instr, p->type, &mm, &nn, &kk);
        unsigned per_instr_warps = p->instr == GS_MMA_WGMMA ? 4 : 1;
        out->flops = (uint64_t)p->blocks * (p->warps_per_block / per_instr_warps) * p->iterations *
                     GS_MMA_PER_TRIP * 2ull * mm * nn * kk;
        double sms = p->blocks < (unsigned)m->info.sm_count ? (double)p->blocks : m->info.sm_count;
        double s = (double)out->flops / (v * sms * m->info.sm_clock_khz * 1e3);
        for (unsigned r = 0; r < p->repeats; r++)
            out->values[r] = s * (1 + m->tensor->jitter_fraction * gs_rng_unit(&m->rng));
    }
    out->n = p->repeats;
    return 0;
}
