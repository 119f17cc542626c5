/* Simulator: the "energy" section of a model file (docs/sim-models.md) and the energy operation
 * (plan/energy.h). The device draws idle_w, and while a work runs idle_w + pj x rate (pJ per
 * operation or byte times giga_per_s of them); its energy counter, in mJ, takes the energy so far
 * every update_ms (from a phase drawn per plan), rounded down to quantum_mj and off by up to
 * +-noise_mj, and is read every read_ms, as NVML's total-energy counter is polled. The work runs
 * from the plan's start for its seconds, its operation count exact; the reads go on for two
 * updates more. A work the section does not give answers GS_ERR_UNSUPPORTED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

typedef struct energy_entry {
    double pj, giga_per_s;        /* NAN: not given */
} energy_entry;

struct sim_energy {
    double idle_w, update_ms, read_ms, quantum_mj, noise_mj;
    energy_entry work[GS_ENERGY_WORK_COUNT];     /* by work; MMA unused */
    energy_entry mma[GS_MMA_TYPE_COUNT];         /* mma.sync per type */
};

static const char *const work_keys[GS_ENERGY_WORK_COUNT] = {
    NULL, "ffma", "dfma", "hfma2", NULL, "smem", "l1", "l2", "dram", "h2d"};

/* The entry a key names ("ffma", "mma_f16", ...), NULL for an unknown key. */
static energy_entry *entry_of(struct sim_energy *e, const char *key)
{
    for (int w = 0; w < GS_ENERGY_WORK_COUNT; w++)
        if (work_keys[w] && strcmp(key, work_keys[w]) == 0)
            return &e->work[w];
    for (int t = 0; t < GS_MMA_TYPE_COUNT; t++) {
        unsigned m, n, k;
        if (strncmp(key, "mma_", 4) == 0 && strcmp(key + 4, gs_mma_type_name((gs_mma_type)t)) == 0
            && gs_mma_shape(GS_MMA_SYNC, (gs_mma_type)t, &m, &n, &k))
            return &e->mma[t];
    }
    return NULL;
}

static int parse_work(const json_t *j, const char *where, struct sim_energy *e, gs_error *err)
{
    static const char *const keys[] = {"pj", "giga_per_s", NULL};
    const char *key;
    json_t *v;
    if (!json_is_object(j))
        return gs_fail(err, GS_ERR_INPUT, "%s: must be an object", where);
    json_object_foreach((json_t *)j, key, v) {
        char path[128];
        snprintf(path, sizeof path, "%s.%.40s", where, key);
        energy_entry *en = entry_of(e, key);
        if (!en)
            return gs_fail(err, GS_ERR_INPUT, "%s: unknown key; use ffma, dfma, hfma2, mma_f16, "
                           "mma_bf16, mma_tf32, mma_e4m3, mma_s8, mma_f64, smem, l1, l2, dram "
                           "or h2d", path);
        int rc = sim_check_keys(v, path, keys, err);
        if (!rc)
            rc = sim_get_double(v, path, "pj", 1, &en->pj, err);
        if (!rc)
            rc = sim_get_double(v, path, "giga_per_s", 1, &en->giga_per_s, err);
        if (!rc && en->giga_per_s <= 0)
            rc = gs_fail(err, GS_ERR_INPUT, "%s.giga_per_s: must be > 0", path);
        if (rc)
            return rc;
    }
    return 0;
}

int sim_energy_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "idle_w", "update_ms", "read_ms",
                                       "quantum_mj", "noise_mj", "work", NULL};
    struct sim_energy *e = calloc(1, sizeof *e);
    if (!e)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    m->energy = e;
    for (int w = 0; w < GS_ENERGY_WORK_COUNT; w++)
        e->work[w] = (energy_entry){NAN, NAN};
    for (int t = 0; t < GS_MMA_TYPE_COUNT; t++)
        e->mma[t] = (energy_entry){NAN, NAN};
    e->update_ms = 100;
    e->read_ms = 4;
    e->quantum_mj = 1;
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = sim_get_double(json, where, "idle_w", 1, &e->idle_w, err);
    if (!rc)
        rc = sim_get_double(json, where, "update_ms", 0, &e->update_ms, err);
    if (!rc)
        rc = sim_get_double(json, where, "read_ms", 0, &e->read_ms, err);
    if (!rc)
        rc = sim_get_double(json, where, "quantum_mj", 0, &e->quantum_mj, err);
    if (!rc)
        rc = sim_get_double(json, where, "noise_mj", 0, &e->noise_mj, err);
    if (!rc && (e->update_ms <= 0 || e->read_ms <= 0 || e->quantum_mj <= 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: update_ms, read_ms and quantum_mj must be > 0",
                     where);
    json_t *work = json_object_get(json, "work");
    if (!rc && work)
        rc = parse_work(work, "energy.work", e, err);
    return rc;
}

void sim_energy_free(gs_sim_model *m)
{
    free(m->energy);
    m->energy = NULL;
}

/* The entry of a plan's work; NULL for IDLE or a work without one. */
static const energy_entry *plan_entry(const struct sim_energy *e, const gs_energy_plan *p)
{
    const energy_entry *en = p->work == GS_ENERGY_MMA
                                 ? ((unsigned)p->type < GS_MMA_TYPE_COUNT ? &e->mma[p->type] : NULL)
                                 : &e->work[p->work];
    return en && !isnan(en->pj) ? en : NULL;
}

int sim_energy_truth(const gs_sim_model *m, gs_energy_work w, gs_mma_type t, double *pj,
                     double *idle_w)
{
    if (!m->energy)
        return -1;
    gs_energy_plan p = {.work = w, .type = t};
    const energy_entry *en = w == GS_ENERGY_IDLE ? NULL : plan_entry(m->energy, &p);
    *idle_w = m->energy->idle_w;
    *pj = en ? en->pj : NAN;
    return 0;
}

int sim_energy(gs_sim_model *m, const gs_energy_plan *p, gs_energy_result *out, gs_error *err)
{
    const struct sim_energy *e = m->energy;
    out->n = 0;
    out->ops = 0;
    if (!(p->seconds > 0) || (unsigned)p->work >= GS_ENERGY_WORK_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "energy plan needs a known work and seconds > 0");
    if (!e)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no energy counter (no \"energy\" "
                       "section)");
    const energy_entry *en = plan_entry(e, p);
    if (p->work != GS_ENERGY_IDLE && !en)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model's energy.work does not give %s%s",
                       p->work == GS_ENERGY_MMA ? "mma_" : "",
                       p->work == GS_ENERGY_MMA ? gs_mma_type_name(p->type)
                                                : gs_energy_work_name(p->work));
    double busy_w = e->idle_w + (en ? en->pj * en->giga_per_s * 1e-3 : 0);
    double update_s = e->update_ms / 1e3, read_s = e->read_ms / 1e3;
    double phase = update_s * gs_rng_unit(&m->rng), end = p->seconds + 2 * update_s;
    double counter = 1e9, next_update = phase, base = 1e9;
    out->busy_start_s = 0;
    out->busy_end_s = p->seconds;
    out->ops = en ? en->giga_per_s * 1e9 * p->seconds : 0;
    for (double t = 0; t <= end && out->n < p->max_reads; t += read_s) {
        while (next_update <= t) {     /* the energy so far at each update, as the counter shows */
            double u = next_update;
            double j = e->idle_w * u + (busy_w - e->idle_w) * fmin(u, p->seconds);
            counter = base + floor(j * 1e3 / e->quantum_mj) * e->quantum_mj +
                      e->noise_mj * (2 * gs_rng_unit(&m->rng) - 1);
            next_update += update_s;
        }
        out->t_s[out->n] = t;
        out->mj[out->n++] = counter;
    }
    return 0;
}
