/* The simulator backend: a loaded model behind the backend interface. info and clock are answered
 * here from the model's "device" and "noise" sections; the other operations by their section's
 * file (sim.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "sim/sim_backend.h"

static gs_sim_model *model_of(gs_backend *b)
{
    return (gs_sim_model *)b->impl;
}

/* FNV-1a (64 bits) of a string, continuing from h. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* A stable pseudo-UUID for a simulated GPU, "SIM-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", from the
 * model's name, its source (built-in name or file) and the seed: a simulated fleet (one model
 * file and seed per "GPU") has distinct GPUs, and the prefix says none of them is real. */
static void sim_uuid(const gs_sim_model *m, uint64_t seed, char *out, size_t len)
{
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    uint64_t a = fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ull, m->name), m->source), seed_text);
    uint64_t b = fnv1a(a ^ 0x9e3779b97f4a7c15ull, seed_text);
    snprintf(out, len, "SIM-%08x-%04x-%04x-%04x-%012llx", (unsigned)(a >> 32),
             (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xffff, (unsigned)(b >> 48),
             (unsigned long long)(b & 0xffffffffffffull));
}

static int sim_info(gs_backend *b, gs_device_info *out, gs_error *err)
{
    (void)err;
    *out = model_of(b)->info;
    sim_uuid(model_of(b), b->seed, out->uuid, sizeof out->uuid);
    return 0;
}

/* Cycles in each window = clock * window, with the model's clock wander; read costs as modelled. */
static int sim_clock(gs_backend *b, const gs_clock_plan *plan, gs_clock_result *out, gs_error *err)
{
    gs_sim_model *m = model_of(b);
    if (plan->windows == 0 || plan->window_ns == 0)
        return gs_fail(err, GS_ERR_USAGE, "clock plan needs windows >= 1 and window_ns > 0");
    double wander = m->clock_wander_percent / 100.0 * (2 * gs_rng_unit(&m->rng) - 1);
    double khz = m->info.sm_clock_khz * (1 + wander);
    for (unsigned w = 0; w < plan->windows; w++) {
        double ns = (double)plan->window_ns + gs_sim_noise(m);
        out->window_ns[w] = (uint64_t)ns;
        out->window_cycles[w] = (uint64_t)(ns * khz / 1e6);
    }
    out->clock64_read_cycles = m->clock64_read_cycles;
    out->globaltimer_read_cycles = m->globaltimer_read_cycles;
    out->globaltimer_resolution_ns = m->globaltimer_resolution_ns;
    out->driver_sm_clock_khz = khz;
    return 0;
}

/* For the tests of failed probes: GS_TEST_FAIL_CHASE=K makes the K-th chase plan of the process
 * (counting from 1) fail as a device error would, so a test can see what a failure mid-probe
 * leaves in the document. Unset, it costs one getenv per process. */
static int injected_failure(gs_error *err)
{
    static long fail_at = -1, count;
    if (fail_at < 0) {
        const char *v = getenv("GS_TEST_FAIL_CHASE");
        fail_at = v ? atol(v) : 0;
    }
    if (fail_at > 0 && ++count == fail_at)
        return gs_fail(err, GS_ERR_DEVICE, "simulated device failure (GS_TEST_FAIL_CHASE=%ld)",
                       fail_at);
    return 0;
}

/* Local memory as the CUDA backend's kernel holds it (chase_local_kernel: each loading lane's
 * own array): the hardware interleaves a warp's local memory 4 bytes at a time across its 32
 * lanes, word i of lane l at byte (32 i + l) x 4 of the warp's window, so a lane's consecutive
 * words lie 128 B apart and a walk of one lane's 4-byte elements touches a line per element.
 * The plan's offsets are one lane's; the simulator walks the addresses they have there. */
static int chase_local(gs_sim_model *m, const gs_chase_plan *p, gs_chase_result *o, gs_error *e)
{
    uint64_t *chain = malloc((p->chain_len ? p->chain_len : 1) * sizeof *chain);
    if (!chain)
        return gs_fail(e, GS_ERR_NO_MEMORY, "chase: out of host memory");
    for (size_t k = 0; k < p->chain_len; k++)
        chain[k] = p->chain[k] / 4 * 128 + p->chain[k] % 4;
    gs_chase_plan q = *p;
    q.chain = chain;
    q.footprint_bytes = (p->footprint_bytes + 3) / 4 * 128;
    q.lane_stride_bytes = 4;
    int rc = sim_chase(m, &q, o, e);
    free(chain);
    return rc;
}

static int op_chase(gs_backend *b, const gs_chase_plan *p, gs_chase_result *o, gs_error *e)
{
    int rc = injected_failure(e);
    if (rc)
        return rc;
    return p->space == GS_SPACE_LOCAL ? chase_local(model_of(b), p, o, e)
                                      : sim_chase(model_of(b), p, o, e);
}

static int op_bank(gs_backend *b, const gs_bank_plan *p, gs_bank_result *o, gs_error *e)
{
    return sim_bank(model_of(b), p, o, e);
}

static int op_issue(gs_backend *b, const gs_issue_plan *p, gs_issue_result *o, gs_error *e)
{
    return sim_issue(model_of(b), p, o, e);
}

static int op_stream(gs_backend *b, const gs_stream_plan *p, gs_stream_result *o, gs_error *e)
{
    if (gs_stream_kind_family(p->kind) != GS_STREAM_FAMILY_PLAIN)
        return sim_level_stream(model_of(b), p, o, e);
    return sim_stream(model_of(b), p, o, e);
}

static int op_p2p(gs_backend *b, const gs_p2p_plan *p, gs_p2p_result *o, gs_error *e)
{
    return sim_p2p(model_of(b), p, o, e);
}

static int op_atomic(gs_backend *b, const gs_atomic_plan *p, gs_atomic_result *o, gs_error *e)
{
    return sim_atomic(model_of(b), p, o, e);
}

static int op_cluster(gs_backend *b, const gs_cluster_plan *p, gs_cluster_result *o, gs_error *e)
{
    return sim_cluster(model_of(b), p, o, e);
}

static int op_write(gs_backend *b, const gs_write_plan *p, gs_write_result *o, gs_error *e)
{
    return sim_write(model_of(b), p, o, e);
}

static int op_persist(gs_backend *b, const gs_persist_plan *p, gs_persist_result *o, gs_error *e)
{
    return sim_persist(model_of(b), p, o, e);
}

static int op_mma(gs_backend *b, const gs_mma_plan *p, gs_mma_result *o, gs_error *e)
{
    return sim_mma(model_of(b), p, o, e);
}

static int op_evict(gs_backend *b, const gs_evict_plan *p, gs_evict_result *o, gs_error *e)
{
    return sim_evict(model_of(b), p, o, e);
}

static int op_launch(gs_backend *b, const gs_launch_plan *p, gs_launch_result *o, gs_error *e)
{
    return sim_launch(model_of(b), p, o, e);
}

static int op_energy(gs_backend *b, const gs_energy_plan *p, gs_energy_result *o, gs_error *e)
{
    return sim_energy(model_of(b), p, o, e);
}

static int op_icache(gs_backend *b, const gs_icache_plan *p, gs_icache_result *o, gs_error *e)
{
    return sim_icache(model_of(b), p, o, e);
}

static void sim_close(gs_backend *b)
{
    gs_sim_model_free(model_of(b));
    free(b);
}

static const gs_backend_ops sim_ops = {
    .info = sim_info,
    .clock = sim_clock,
    .chase = op_chase,
    .bank = op_bank,
    .issue = op_issue,
    .stream = op_stream,
    .close = sim_close,
    .p2p = op_p2p,
    .atomic = op_atomic,
    .cluster = op_cluster,
    .write = op_write,
    .persist = op_persist,
    .mma = op_mma,
    .evict = op_evict,
    .launch = op_launch,
    .energy = op_energy,
    .icache = op_icache,
};

int gs_sim_open(const char *model, uint64_t seed, gs_backend **out, gs_error *err)
{
    gs_sim_model *m = NULL;
    *out = NULL;
    int rc = gs_sim_model_load(model, seed, &m, err);
    if (rc)
        return rc;
    gs_backend *b = calloc(1, sizeof *b);
    if (!b) {
        gs_sim_model_free(m);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory opening the simulator");
    }
    b->ops = &sim_ops;
    b->impl = m;
    b->seed = seed;
    *out = b;
    return 0;
}
