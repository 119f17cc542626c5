/* Simulator: the "pipeline" section of a model file (docs/sim-models.md) and the issue operation.
 * Each instruction type has a completion latency (Lambda: cycles before a dependent instruction
 * may issue), units per SM (lanes that execute it) and a per-scheduler issue interval; the SM has
 * `schedulers` warp schedulers over which the concurrent warps are spread evenly. A scheduler
 * issues one warp instruction of the type every lambda_s = max(issue_cycles, warp_size / (units
 * per scheduler)) cycles; a warp with ilp independent chains issues a group of ilp every
 * max(Lambda, ilp * lambda_s) cycles (the pipeline model of the roofline paper, section IV). A run
 * of concurrent blocks ends with its busiest scheduler; an SM runs its blocks in runs of the
 * concurrent-block limit (the most blocks that fit, or the Eq. 2 shared-memory limit); divergent
 * paths run one after another. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define SIM_PER_TRIP 256  /* instructions per loop trip in the simulated kernel */

typedef struct sim_pipe_instr {
    int present;
    double units_per_sm;        /* "units_per_sm": lanes executing this type in one SM */
    double completion_cycles;   /* "completion_cycles": Lambda */
    double issue_cycles;        /* "issue_cycles": least cycles between two issues of this type by
                                   one scheduler (default 1) */
    char device_error[160];     /* "device_error": every issue plan of this type fails with it, as
                                   a kernel that fails on a device does (tests the probes) */
} sim_pipe_instr;

typedef struct sim_pipeline {
    unsigned schedulers;        /* "schedulers": warp schedulers per SM */
    sim_pipe_instr instr[GS_INSTR_COUNT];
} sim_pipeline;

static int parse_instr(const json_t *j, const char *where, sim_pipe_instr *p, gs_error *err)
{
    static const char *const keys[] = {"units_per_sm", "completion_cycles", "issue_cycles",
                                       "device_error", "comment", NULL};
    const char *device_error = NULL;
    p->issue_cycles = 1;
    if (sim_check_keys(j, where, keys, err) ||
        sim_get_double(j, where, "units_per_sm", 1, &p->units_per_sm, err) ||
        sim_get_double(j, where, "completion_cycles", 1, &p->completion_cycles, err) ||
        sim_get_double(j, where, "issue_cycles", 0, &p->issue_cycles, err) ||
        sim_get_string(j, where, "device_error", 0, &device_error, err))
        return err->status;
    if (device_error && !*device_error)
        return gs_fail(err, GS_ERR_INPUT, "%s.device_error: must not be empty (leave it out)",
                       where);
    snprintf(p->device_error, sizeof p->device_error, "%s", device_error ? device_error : "");
    if (!(p->units_per_sm > 0) || !(p->completion_cycles > 0) || !(p->issue_cycles > 0))
        return gs_fail(err, GS_ERR_INPUT, "%s: units_per_sm, completion_cycles and issue_cycles "
                       "must be > 0", where);
    p->present = 1;
    return 0;
}

static int parse_instructions(const json_t *j, sim_pipeline *p, gs_error *err)
{
    const char *key;
    json_t *v;
    if (!json_is_object(j))
        return gs_fail(err, GS_ERR_INPUT, "pipeline.instructions: must be an object");
    json_object_foreach((json_t *)j, key, v) {
        gs_instr i;
        char where[96];
        snprintf(where, sizeof where, "pipeline.instructions.%s", key);
        if (gs_instr_parse(key, &i) != 0) {
            char names[640] = "";
            size_t used = 0;
            for (int k = 0; k < GS_INSTR_COUNT && used < sizeof names; k++) {
                int w = snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                                 gs_instr_name((gs_instr)k));
                used += w > 0 ? (size_t)w : 0;
            }
            return gs_fail(err, GS_ERR_INPUT, "%s: unknown instruction type; known: %s", where, names);
        }
        if (parse_instr(v, where, &p->instr[i], err))
            return err->status;
    }
    return 0;
}

int sim_pipeline_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"schedulers", "instructions", "comment", NULL};
    uint64_t schedulers = 0;
    sim_pipeline *p;
    if (sim_check_keys(json, where, keys, err) ||
        sim_get_uint(json, where, "schedulers", 1, &schedulers, err))
        return err->status;
    if (schedulers < 1 || schedulers > 64)
        return gs_fail(err, GS_ERR_INPUT, "%s.schedulers: %llu is outside 1..64", where,
                       (unsigned long long)schedulers);
    if (!json_object_get(json, "instructions"))
        return gs_fail(err, GS_ERR_INPUT, "%s.instructions: missing (an object of instruction "
                       "types)", where);
    if (!(p = calloc(1, sizeof *p)))
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    p->schedulers = (unsigned)schedulers;
    if (parse_instructions(json_object_get(json, "instructions"), p, err)) {
        free(p);
        return err->status;
    }
    sim_pipeline_free(m);
    m->pipeline = p;
    return 0;
}

void sim_pipeline_free(gs_sim_model *m)
{
    free(m->pipeline);
    m->pipeline = NULL;
}

int sim_pipeline_instr_truth(const gs_sim_model *m, gs_instr i, unsigned *schedulers,
                             double *units_per_sm, double *completion_cycles, double *issue_cycles)
{
    const sim_pipeline *p = m->pipeline;
    if (!p || (unsigned)i >= GS_INSTR_COUNT || !p->instr[i].present)
        return -1;
    *schedulers = p->schedulers;
    *units_per_sm = p->instr[i].units_per_sm;
    *completion_cycles = p->instr[i].completion_cycles;
    *issue_cycles = p->instr[i].issue_cycles;
    return 0;
}

/* Cycles one run of `warps` concurrent warps takes, each issuing n instructions in ilp chains. */
static double run_cycles(const sim_pipeline *p, const sim_pipe_instr *t, double warp_size,
                         double warps, unsigned ilp, double n)
{
    double s = p->schedulers;
    double lambda_s = fmax(t->issue_cycles, warp_size * s / t->units_per_sm);
    double per_warp = n * fmax(t->completion_cycles, ilp * lambda_s) / ilp; /* its dependences */
    double busiest = ceil(warps / s) * n * lambda_s;                      /* its scheduler's work */
    return fmax(per_warp, busiest);
}

/* Cycles of an SM that runs nb blocks of wpb warps, conc at a time. */
static double sm_cycles(const sim_pipeline *p, const sim_pipe_instr *t, double warp_size,
                        unsigned nb, unsigned conc, unsigned wpb, unsigned ilp, double n)
{
    double c = (double)(nb / conc) * run_cycles(p, t, warp_size, (double)conc * wpb, ilp, n);
    if (nb % conc)
        c += run_cycles(p, t, warp_size, (double)(nb % conc) * wpb, ilp, n);
    return c;
}

/* Concurrent blocks per SM: the device's limits, and Eq. 2 (the least shared memory per block that
 * lets no more than limit blocks fit). GS_ERR_UNSUPPORTED when the plan cannot run. */
static int concurrent_blocks(const gs_device_info *d, const gs_issue_plan *plan,
                             unsigned threads, unsigned *out, gs_error *err)
{
    unsigned conc = d->max_blocks_per_sm > 0 ? (unsigned)d->max_blocks_per_sm : 32;
    if (threads > (unsigned)d->max_threads_per_block || threads > (unsigned)d->max_threads_per_sm)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: %u threads per block; the model allows %d",
                       threads, d->max_threads_per_block);
    conc = conc < d->max_threads_per_sm / threads ? conc : d->max_threads_per_sm / threads;
    if (plan->blocks_per_sm_limit > 0) {
        uint64_t smem = d->smem_per_sm_bytes / (plan->blocks_per_sm_limit + 1) + 1;
        if (d->smem_per_sm_bytes == 0 || smem > d->smem_per_block_optin_bytes)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: cannot limit to %u block(s) per SM "
                           "with shared memory (%llu B per SM, %llu B per block at most)",
                           plan->blocks_per_sm_limit, (unsigned long long)d->smem_per_sm_bytes,
                           (unsigned long long)d->smem_per_block_optin_bytes);
        unsigned fit = (unsigned)(d->smem_per_sm_bytes / smem);
        conc = conc < fit ? conc : fit;
    }
    *out = conc;
    return 0;
}

int sim_issue(gs_sim_model *m, const gs_issue_plan *plan, gs_issue_result *out, gs_error *err)
{
    const sim_pipeline *p = m->pipeline;
    const gs_device_info *d = &m->info;
    if (!p)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model %s has no \"pipeline\" section", m->name);
    if ((unsigned)plan->instr >= GS_INSTR_COUNT || !p->instr[plan->instr].present)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model %s has no pipeline.instructions.%s",
                       m->name, gs_instr_name(plan->instr));
    if (!(plan->ilp == 1 || plan->ilp == 2 || plan->ilp == 4) || plan->warps_per_block == 0 ||
        plan->blocks == 0 || plan->iterations == 0 || plan->divergent_paths > 32)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: needs ILP 1, 2 or 4, warps, blocks and "
                       "iterations >= 1, divergent_paths 0..32");
    const sim_pipe_instr *t = &p->instr[plan->instr];
    if (t->device_error[0])
        return gs_fail(err, GS_ERR_DEVICE, "issue: %s", t->device_error);
    unsigned threads = plan->warps_per_block * (unsigned)d->warp_size;
    unsigned conc = 0;
    int rc = concurrent_blocks(d, plan, threads, &conc, err);
    if (rc)
        return rc;
    unsigned paths = plan->divergent_paths > 1 ? plan->divergent_paths : 1;
    double n = (double)plan->iterations * SIM_PER_TRIP * paths;  /* per warp */
    unsigned sms = (unsigned)d->sm_count, base = plan->blocks / sms, rem = plan->blocks % sms;
    unsigned most = base + (rem ? 1 : 0);
    double busy = sm_cycles(p, t, d->warp_size, most, conc, plan->warps_per_block, plan->ilp, n);
    double rest = base ? sm_cycles(p, t, d->warp_size, base, conc, plan->warps_per_block,
                                   plan->ilp, n) : 0;
    double used_sms = rem ? rem + (base ? sms - rem : 0) : sms;
    double noise = gs_sim_noise(m);
    out->cycles = busy + noise;
    out->instructions = (double)plan->blocks * plan->warps_per_block * n;
    out->instr_per_cycle_per_sm =
        out->instructions / ((rem ? rem * busy + (base ? (sms - rem) * rest : 0) : sms * busy) +
                             used_sms * noise);
    out->warps_per_sm = (double)(most < conc ? most : conc) * plan->warps_per_block;
    out->ns = out->cycles / d->sm_clock_khz * 1e6;
    /* The simulated SMs share one clock and start their blocks together: the timing checks pass. */
    out->clock_khz = d->sm_clock_khz;
    out->kernel_ipc_per_sm = out->instructions / (sms * out->cycles);
    out->clock64_ipc_per_sm = out->instr_per_cycle_per_sm;
    out->start_spread_cycles = 0;
    out->clock_mismatch_sms = 0;
    out->moved_blocks = 0;
    out->measurement_error = false;
    out->instructions_per_trip = SIM_PER_TRIP;
    return 0;
}
