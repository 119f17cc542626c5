/* Simulator: the "shared_memory" section of a model file (bank count, bank width, latency, cost
 * per way of conflict, broadcast rule; docs/sim-models.md) and the bank operation: one warp reads
 * shared memory at a stride (plan.h, gs_bank_plan) and takes
 *     latency_cycles + (wavefronts - 1) * conflict_cycles_per_way (+ the model's noise)
 * cycles, where wavefronts counts the conflict-free passes the banks need (sim/banks.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/banks.h"
#include "sim/sim.h"

#define WARP_LANES 32u
#define MAX_REQUESTS (WARP_LANES * 64u)   /* lanes x bank words per lane (16 B / 1 B banks) */

static int is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

static int parse_broadcast(const json_t *json, const char *where, sim_banks *b, gs_error *err)
{
    const char *rule = "multicast";
    if (sim_get_string(json, where, "broadcast", 0, &rule, err))
        return err->status;
    if (strcmp(rule, "multicast") == 0)
        b->multicast = true;
    else if (strcmp(rule, "single") == 0)
        b->multicast = false;
    else
        return gs_fail(err, GS_ERR_INPUT, "%s.broadcast: \"%s\" is not a rule; use \"multicast\" "
                       "or \"single\"", where, rule);
    return 0;
}

int sim_banks_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = { "banks", "bank_width_bytes", "latency_cycles",
                                        "conflict_cycles_per_way", "broadcast", NULL };
    if (!json_is_object(json))
        return gs_fail(err, GS_ERR_INPUT, "%s: must be an object", where);
    if (sim_check_keys(json, where, keys, err))
        return err->status;
    sim_banks b = { .multicast = true };
    uint64_t banks = 0, width = 0;
    if (sim_get_uint(json, where, "banks", 1, &banks, err) ||
        sim_get_uint(json, where, "bank_width_bytes", 1, &width, err) ||
        sim_get_double(json, where, "latency_cycles", 1, &b.latency_cycles, err) ||
        sim_get_double(json, where, "conflict_cycles_per_way", 1, &b.conflict_cycles_per_way, err) ||
        parse_broadcast(json, where, &b, err))
        return err->status;
    if (banks < 1 || banks > 256)
        return gs_fail(err, GS_ERR_INPUT, "%s.banks: %llu is outside 1..256", where,
                       (unsigned long long)banks);
    if (!is_pow2(width) || width > 64)
        return gs_fail(err, GS_ERR_INPUT, "%s.bank_width_bytes: %llu is not a power of two in "
                       "1..64", where, (unsigned long long)width);
    if (!(b.latency_cycles > 0) || !(b.conflict_cycles_per_way >= 0))
        return gs_fail(err, GS_ERR_INPUT, "%s: latency_cycles must be > 0 and "
                       "conflict_cycles_per_way >= 0", where);
    b.banks = (unsigned)banks;
    b.bank_width_bytes = (unsigned)width;
    sim_banks *copy = malloc(sizeof *copy);
    if (!copy)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    *copy = b;
    sim_banks_free(m);
    m->banks = copy;
    return 0;
}

void sim_banks_free(gs_sim_model *m)
{
    free(m->banks);
    m->banks = NULL;
}

/* The bank words (units of bank_width_bytes) lanes [first, first + count) ask for: one request
 * per lane and bank word its access covers. Returns the number of requests. */
static unsigned phase_requests(const sim_banks *b, const gs_bank_plan *plan, unsigned first,
                               unsigned count, uint64_t *words)
{
    unsigned group = plan->group_lanes > 1 ? plan->group_lanes : 1;
    unsigned n = 0;
    for (unsigned lane = first; lane < first + count; lane++) {
        uint64_t addr = (uint64_t)(lane / group) * plan->stride_elems * plan->access_bytes;
        uint64_t lo = addr / b->bank_width_bytes;
        uint64_t hi = (addr + plan->access_bytes - 1) / b->bank_width_bytes;
        for (uint64_t w = lo; w <= hi && n < MAX_REQUESTS; w++)
            words[n++] = w;
    }
    return n;
}

/* Passes one phase needs: per bank, the distinct rows asked for (multicast), or, with a single
 * broadcast, one pass for the most-requested word plus one per other request in that bank. */
static unsigned phase_passes(const sim_banks *b, const uint64_t *words, unsigned n)
{
    uint64_t broadcast = UINT64_MAX;
    if (!b->multicast) {
        unsigned best = 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned same = 0;
            for (unsigned j = 0; j < n; j++)
                same += words[j] == words[i];
            if (same > best) { best = same; broadcast = words[i]; }
        }
    }
    unsigned passes = 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned bank = (unsigned)(words[i] % b->banks), ways = 0;
        for (unsigned j = 0; j < n; j++) {
            if (words[j] % b->banks != bank)
                continue;
            bool first_of_word = true;
            for (unsigned k = 0; k < j && (b->multicast || words[j] == broadcast); k++)
                if (words[k] == words[j]) { first_of_word = false; break; }
            ways += first_of_word;
        }
        if (ways > passes)
            passes = ways;
    }
    return passes;
}

unsigned sim_bank_wavefronts(const sim_banks *b, const gs_bank_plan *plan)
{
    unsigned lanes = b->banks * b->bank_width_bytes / plan->access_bytes;
    if (lanes < 1) lanes = 1;
    if (lanes > WARP_LANES) lanes = WARP_LANES;
    uint64_t words[MAX_REQUESTS];
    unsigned total = 0;
    for (unsigned first = 0; first < WARP_LANES; first += lanes) {
        unsigned count = first + lanes <= WARP_LANES ? lanes : WARP_LANES - first;
        total += phase_passes(b, words, phase_requests(b, plan, first, count, words));
    }
    return total;
}

int sim_bank(gs_sim_model *m, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err)
{
    if (!m->banks)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no \"shared_memory\" section: "
                       "it cannot run 'bank' plans", m->name);
    unsigned w = plan->access_bytes;
    if (w != 2 && w != 4 && w != 8 && w != 16)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: access width %u B; use 2, 4, 8 or 16", w);
    if (plan->group_lanes > WARP_LANES)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: group_lanes %u exceeds a warp",
                       plan->group_lanes);
    const sim_banks *b = m->banks;
    unsigned wavefronts = sim_bank_wavefronts(b, plan);
    double cycles = b->latency_cycles + (double)(wavefronts - 1) * b->conflict_cycles_per_way;
    for (unsigned r = 0; r < plan->repeats; r++)
        out->cycles[r] = cycles + gs_sim_noise(m);
    out->n = plan->repeats;
    return 0;
}
