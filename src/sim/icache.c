/* Simulator: the "icache" section of a model file (docs/sim-models.md#icache) and the icache
 * operation (plan.h, gs_icache_plan). The section lists the instruction-cache levels, smallest
 * first, each with its capacity in bytes and the cycles per instruction of straight-line code
 * that fits in it and not in a smaller level, and the cycles per instruction of code larger than
 * every level (served by the L2 or beyond). A repetition of a block of B bytes answers the
 * cycles per instruction of the smallest level holding B, stretched by up to noise_fraction. A
 * model without the section answers GS_ERR_UNSUPPORTED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

#define ICACHE_MAX_LEVELS 4

struct sim_icache {
    int levels;
    double bytes[ICACHE_MAX_LEVELS];
    double cycles_per_instruction[ICACHE_MAX_LEVELS];
    double beyond_cycles_per_instruction;
    double noise_fraction;
};

static int parse_level(const json_t *j, const char *where, struct sim_icache *c, int i,
                       gs_error *err)
{
    static const char *const keys[] = {"bytes", "cycles_per_instruction", NULL};
    int rc = sim_check_keys(j, where, keys, err);
    if (!rc)
        rc = sim_get_double(j, where, "bytes", 1, &c->bytes[i], err);
    if (!rc)
        rc = sim_get_double(j, where, "cycles_per_instruction", 1, &c->cycles_per_instruction[i],
                            err);
    if (!rc && (c->bytes[i] <= 0 || c->cycles_per_instruction[i] <= 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: bytes and cycles_per_instruction must be above 0",
                     where);
    if (!rc && i > 0 && c->bytes[i] <= c->bytes[i - 1])
        rc = gs_fail(err, GS_ERR_INPUT, "%s.bytes: levels must grow (smallest first)", where);
    return rc;
}

int sim_icache_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "levels", "beyond_cycles_per_instruction",
                                       "noise_fraction", NULL};
    struct sim_icache *c = calloc(1, sizeof *c);
    if (!c)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    int rc = sim_check_keys(json, where, keys, err);
    const json_t *levels = json_object_get(json, "levels");
    if (!rc && (!json_is_array(levels) || json_array_size(levels) < 1 ||
                json_array_size(levels) > ICACHE_MAX_LEVELS))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.levels: a list of 1 to %d levels, smallest first",
                     where, ICACHE_MAX_LEVELS);
    for (size_t i = 0; !rc && i < json_array_size(levels); i++) {
        char path[96];
        snprintf(path, sizeof path, "%s.levels[%zu]", where, i);
        rc = parse_level(json_array_get(levels, i), path, c, (int)i, err);
        c->levels = (int)i + 1;
    }
    if (!rc)
        rc = sim_get_double(json, where, "beyond_cycles_per_instruction", 1,
                            &c->beyond_cycles_per_instruction, err);
    if (!rc)
        rc = sim_get_double(json, where, "noise_fraction", 0, &c->noise_fraction, err);
    if (!rc && !(c->beyond_cycles_per_instruction > 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.beyond_cycles_per_instruction: must be above 0", where);
    if (!rc && !(c->noise_fraction >= 0 && c->noise_fraction < 1))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.noise_fraction: must be in [0, 1)", where);
    if (rc) {
        free(c);
        return rc;
    }
    sim_icache_free(m);
    m->icache = c;
    return 0;
}

void sim_icache_free(gs_sim_model *m)
{
    free(m->icache);
    m->icache = NULL;
}

int sim_icache(gs_sim_model *m, const gs_icache_plan *p, gs_icache_result *out, gs_error *err)
{
    const struct sim_icache *c = m->icache;
    bool known = false;
    for (int i = 0; i < GS_ICACHE_SIZES; i++)
        known = known || gs_icache_size(i) == p->code_bytes;
    if (!c)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no icache section");
    if (!known || p->loops < 1 || p->repeats < 1 || !out->values)
        return gs_fail(err, GS_ERR_USAGE, "icache plan: code_bytes one of gs_icache_size's, "
                       "loops and repeats >= 1, a values array");
    double cpi = c->beyond_cycles_per_instruction;
    for (int i = c->levels - 1; i >= 0; i--)
        if ((double)p->code_bytes <= c->bytes[i])
            cpi = c->cycles_per_instruction[i];
    for (unsigned r = 0; r < p->repeats; r++)
        out->values[r] = cpi * (1 + c->noise_fraction * gs_rng_unit(&m->rng));
    out->n = p->repeats;
    return 0;
}
