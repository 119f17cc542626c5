/* Simulator: the "atomics" section of a model file (docs/sim-models.md) and the atomic operation
 * (plan.h, gs_atomic_plan). Per space ("global", "shared") the section gives a "default" entry and
 * entries per operation and type ("add.f64") that override it field by field: the latency of one
 * dependent atomic, and the throughput of each pattern (global: ops per clock of the whole GPU on
 * one address, ops per clock per SM on distinct words, ops per clock per contended line; shared:
 * ops per clock per SM on one address, on distinct words, and on words of one bank). A chain
 * repetition takes latency + the model's cycle noise per atomic; a throughput launch takes
 * operations / (rate x clock) seconds, stretched by up to the section's jitter_fraction. A model
 * without the section has no atomic unit: every plan answers GS_ERR_UNSUPPORTED saying so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

enum { F_LATENCY, F_ONE_ADDRESS, F_DISTINCT, F_LINE, F_SAME_BANK, FIELD_COUNT };

/* One entry's fields, NAN where the entry does not give it. */
typedef struct atomic_entry {
    double f[FIELD_COUNT];
} atomic_entry;

#define ENTRIES (GS_ATOMIC_OP_COUNT * GS_ATOMIC_TYPE_COUNT)

typedef struct atomic_space {
    bool present;
    atomic_entry fallback;                  /* "default" */
    atomic_entry entry[ENTRIES];            /* [op * TYPE_COUNT + type] */
} atomic_space;

struct sim_atomics {
    double jitter_fraction;
    atomic_space space[2];                  /* global, shared */
};

/* The JSON key of each field per space; NULL where the space has no such pattern. */
static const char *const field_keys[2][FIELD_COUNT] = {
    {"latency_cycles", "one_address_ops_per_clock", "distinct_ops_per_clock_per_sm",
     "line_ops_per_clock", NULL},
    {"latency_cycles", "one_address_ops_per_clock_per_sm", "distinct_ops_per_clock_per_sm", NULL,
     "same_bank_ops_per_clock_per_sm"},
};

static int parse_entry(const json_t *j, const char *where, int s, atomic_entry *e, gs_error *err)
{
    const char *keys[FIELD_COUNT + 1];
    int n = 0;
    for (int f = 0; f < FIELD_COUNT; f++)
        if (field_keys[s][f])
            keys[n++] = field_keys[s][f];
    keys[n] = NULL;
    int rc = sim_check_keys(j, where, keys, err);
    for (int f = 0; f < FIELD_COUNT && !rc; f++) {
        e->f[f] = NAN;
        if (field_keys[s][f])
            rc = sim_get_double(j, where, field_keys[s][f], 0, &e->f[f], err);
        if (!rc && f != F_LATENCY && e->f[f] == 0)
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: a rate must be > 0 (leave it out: the model "
                         "does not say)", where, field_keys[s][f]);
    }
    return rc;
}

/* "add.u32" -> entry index, or -1. */
static int entry_index(const char *key)
{
    for (int o = 0; o < GS_ATOMIC_OP_COUNT; o++)
        for (int t = 0; t < GS_ATOMIC_TYPE_COUNT; t++) {
            char name[24];
            snprintf(name, sizeof name, "%s.%s", gs_atomic_op_name((gs_atomic_op)o),
                     gs_atomic_type_name((gs_atomic_type)t));
            if (strcmp(name, key) == 0)
                return gs_atomic_op_has_type((gs_atomic_op)o, (gs_atomic_type)t)
                     ? o * GS_ATOMIC_TYPE_COUNT + t : -1;
        }
    return -1;
}

static int parse_space(const json_t *j, const char *where, int s, atomic_space *sp, gs_error *err)
{
    if (!json_is_object(j))
        return gs_fail(err, GS_ERR_INPUT, "%s: must be an object", where);
    for (int f = 0; f < FIELD_COUNT; f++)
        sp->fallback.f[f] = NAN;
    for (int e = 0; e < ENTRIES; e++)
        for (int f = 0; f < FIELD_COUNT; f++)
            sp->entry[e].f[f] = NAN;
    const char *key;
    json_t *v;
    char path[160];
    json_object_foreach((json_t *)j, key, v) {
        int at = strcmp(key, "default") == 0 ? ENTRIES : entry_index(key);
        snprintf(path, sizeof path, "%s.%.40s", where, key);
        if (at < 0)
            return gs_fail(err, GS_ERR_INPUT, "%s: unknown key; use \"default\" or OP.TYPE of an "
                           "atomic CUDA has (add.u32, add.u64, add.f32, add.f64, cas.u32, "
                           "cas.u64, exch.u32, exch.u64, exch.f32, min.u32, min.u64, max.u32, "
                           "max.u64)", path);
        int rc = parse_entry(v, path, s, at == ENTRIES ? &sp->fallback : &sp->entry[at], err);
        if (rc)
            return rc;
    }
    sp->present = true;
    return 0;
}

int sim_atomics_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "jitter_fraction", "global", "shared", NULL};
    static const char *const spaces[2] = {"global", "shared"};
    struct sim_atomics *a = calloc(1, sizeof *a);
    if (!a)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = sim_get_double(json, where, "jitter_fraction", 0, &a->jitter_fraction, err);
    if (!rc && a->jitter_fraction >= 1)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.jitter_fraction: must be in [0, 1)", where);
    for (int s = 0; s < 2 && !rc; s++) {
        json_t *sp = json_object_get(json, spaces[s]);
        char path[64];
        snprintf(path, sizeof path, "%s.%s", where, spaces[s]);
        if (sp)
            rc = parse_space(sp, path, s, &a->space[s], err);
    }
    if (rc) {
        free(a);
        return rc;
    }
    sim_atomics_free(m);
    m->atomics = a;
    return 0;
}

void sim_atomics_free(gs_sim_model *m)
{
    free(m->atomics);
    m->atomics = NULL;
}

/* ---- the atomic operation -------------------------------------------------------------------- */
/* Field f of (space, op, type): the op's entry, else the default; NAN when neither gives it. */
static double field(const atomic_space *sp, const gs_atomic_plan *p, int f)
{
    double v = sp->entry[p->op * GS_ATOMIC_TYPE_COUNT + p->type].f[f];
    return isnan(v) ? sp->fallback.f[f] : v;
}

static int pattern_field(const gs_atomic_plan *p)
{
    switch (p->pattern) {
    case GS_ATOMIC_CHAIN: return F_LATENCY;
    case GS_ATOMIC_ONE_ADDRESS: return F_ONE_ADDRESS;
    case GS_ATOMIC_DISTINCT: return F_DISTINCT;
    case GS_ATOMIC_LINES: return p->space == GS_SPACE_GLOBAL ? F_LINE : -1;
    case GS_ATOMIC_SAME_BANK: return p->space == GS_SPACE_SHARED ? F_SAME_BANK : -1;
    default: return -1;
    }
}

static int check_plan(const gs_sim_model *m, const gs_atomic_plan *p, int *f, gs_error *err)
{
    if (!m->atomics)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no atomic unit (model '%s' has no "
                       "\"atomics\" section)", m->name);
    if (p->space != GS_SPACE_GLOBAL && p->space != GS_SPACE_SHARED)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "atomic plan: space %s; use global or shared",
                       gs_space_name(p->space));
    if (!gs_atomic_op_has_type(p->op, p->type))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "CUDA has no atomic %s on %s",
                       gs_atomic_op_name(p->op), gs_atomic_type_name(p->type));
    if ((*f = pattern_field(p)) < 0)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "atomic plan: pattern %s does not apply to %s "
                       "memory", gs_atomic_pattern_name(p->pattern), gs_space_name(p->space));
    if (p->repeats < 1 || (p->pattern == GS_ATOMIC_LINES && p->lines < 1) ||
        (p->pattern != GS_ATOMIC_CHAIN &&
         (p->blocks < 1 || p->threads_per_block < 32 || p->threads_per_block % 32 ||
          p->iterations < 1)))
        return gs_fail(err, GS_ERR_USAGE, "atomic plan: repeats, lines, blocks and iterations "
                       "must be >= 1, threads_per_block a multiple of 32");
    return 0;
}

/* Ops per clock of the whole launch under the model (rate = field f of the entry). */
static double launch_rate(const gs_sim_model *m, const gs_atomic_plan *p, double rate)
{
    double sms = p->blocks < (unsigned)m->info.sm_count ? (double)p->blocks : m->info.sm_count;
    if (p->space == GS_SPACE_GLOBAL && p->pattern == GS_ATOMIC_ONE_ADDRESS)
        return rate;
    if (p->space == GS_SPACE_GLOBAL && p->pattern == GS_ATOMIC_LINES) {
        double distinct = field(&m->atomics->space[0], p, F_DISTINCT);
        double lines = p->lines * rate;
        return isnan(distinct) || lines < distinct * sms ? lines : distinct * sms;
    }
    return rate * sms;
}

int sim_atomic(gs_sim_model *m, const gs_atomic_plan *p, gs_atomic_result *out, gs_error *err)
{
    int f = 0;
    int rc = check_plan(m, p, &f, err);
    if (rc)
        return rc;
    const atomic_space *sp = &m->atomics->space[p->space == GS_SPACE_SHARED];
    double v = sp->present ? field(sp, p, f) : NAN;
    if (isnan(v))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model gives no atomics.%s %s for %s.%s "
                       "(nor a default)", gs_space_name(p->space),
                       field_keys[p->space == GS_SPACE_SHARED][f], gs_atomic_op_name(p->op),
                       gs_atomic_type_name(p->type));
    out->clock_khz = m->info.sm_clock_khz;
    out->operations = 0;
    if (p->pattern == GS_ATOMIC_CHAIN) {
        for (unsigned r = 0; r < p->repeats; r++)
            out->values[r] = v + gs_sim_noise(m);
    } else {
        out->operations = (uint64_t)p->blocks * p->threads_per_block * p->iterations;
        double s = (double)out->operations / (launch_rate(m, p, v) * m->info.sm_clock_khz * 1e3);
        for (unsigned r = 0; r < p->repeats; r++)
            out->values[r] = s * (1 + m->atomics->jitter_fraction * gs_rng_unit(&m->rng));
    }
    out->n = p->repeats;
    return 0;
}
