/* The simulator's "cluster" section and cluster operation (src/plan.h, docs/sim-models.md#cluster):
 * Hopper-style thread-block clusters. The section states the largest cluster size, how many
 * clusters of each size fit at once, the latency of a load from the block's own shared memory and
 * from another block's (one value, or one per rank distance 1..max_size-1), the shared-memory read
 * rate per SM locally and across the cluster, and optionally ("tma") the rates of bulk and
 * vectorized global -> shared copies from the L2 and from DRAM, and optionally within it those of
 * the 2D tensor-map copy (tensor_l2_gbps, tensor_dram_gbps) and the latency of one transfer
 * from the L2, by the bulk copy, by 16-byte loads and by the 2D tensor-map copy of one box, as
 * base cycles plus cycles per KB (bulk_latency_*, load_latency_*, tensor_latency_*), which are
 * also the truth of those figures (sim_cluster_transfer_truth). The operation answers what a card
 * of that description would show: latencies plus the model's jitter, and seconds per repetition of
 * the bytes at the stated rate, stretched by up to jitter_fraction. A model without the section,
 * or a device under compute capability 9.0, answers GS_ERR_UNSUPPORTED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define SIM_CLUSTER_MAX 16
#define PORTABLE_SIZE 8

struct sim_cluster {
    unsigned max_size;                      /* largest cluster size allowed (8 or 16) */
    int max_active[SIM_CLUSTER_MAX + 1];    /* per size; 0 = floor(sm_count / size) */
    double local_latency_cycles;            /* ld.shared and ld.shared::cluster to rank 0 */
    double remote_latency_cycles[SIM_CLUSTER_MAX];   /* by distance 1..max_size-1 (index d) */
    double local_gbps_per_sm;
    double remote_gbps_per_sm;
    double jitter_fraction;
    bool tma;
    double bulk_l2_gbps, bulk_dram_gbps, vector_l2_gbps, vector_dram_gbps;
    double tensor_l2_gbps, tensor_dram_gbps;   /* 0: the model does not say */
    /* one transfer of B bytes takes base + per_kb x B / 1024 cycles; 0 base: not said */
    double bulk_latency_base_cycles, bulk_latency_cycles_per_kb;
    double load_latency_base_cycles, load_latency_cycles_per_kb;
    double tensor_latency_base_cycles, tensor_latency_cycles_per_kb;
};

/* The largest single transfer of the latency kinds (src/cuda/cluster.cu: one 16 KB chunk). */
#define TRANSFER_MAX_BYTES 16384u

/* The tensor-map copy's matrix (src/cuda/cluster.cu): whole bands of 64 rows of 4 KB. */
#define TENSOR_BAND_BYTES (64u * 4096u)

/* "remote_latency_cycles": one number for every distance, or a list of max_size - 1. */
static int parse_remote_latency(const json_t *j, const char *where, struct sim_cluster *c,
                                gs_error *err)
{
    json_t *v = json_object_get(j, "remote_latency_cycles");
    if (json_is_number(v) || !v) {
        double one = 0;
        int rc = sim_get_double(j, where, "remote_latency_cycles", 1, &one, err);
        for (unsigned d = 1; d < c->max_size && !rc; d++)
            c->remote_latency_cycles[d] = one;
        return rc;
    }
    if (!json_is_array(v) || json_array_size(v) != c->max_size - 1)
        return gs_fail(err, GS_ERR_INPUT, "%s.remote_latency_cycles: must be a number or a list "
                       "of %u numbers (rank distance 1..%u)", where, c->max_size - 1,
                       c->max_size - 1);
    for (unsigned d = 1; d < c->max_size; d++) {
        json_t *x = json_array_get(v, d - 1);
        if (!json_is_number(x) || sim_check_range(where, "remote_latency_cycles",
                                                  "latency_cycles", json_number_value(x), err))
            return gs_fail(err, GS_ERR_INPUT, "%s.remote_latency_cycles[%u]: must be a number "
                           "in 0..1e6", where, d - 1);
        c->remote_latency_cycles[d] = json_number_value(x);
    }
    return 0;
}

/* "max_active_clusters": {"2": N, "4": N, ...}, sizes up to max_size. */
static int parse_max_active(const json_t *j, const char *where, struct sim_cluster *c,
                            gs_error *err)
{
    json_t *v = json_object_get(j, "max_active_clusters");
    const char *key;
    json_t *x;
    if (!v)
        return 0;
    if (!json_is_object(v))
        return gs_fail(err, GS_ERR_INPUT, "%s.max_active_clusters: must be an object of cluster "
                       "size -> clusters", where);
    json_object_foreach(v, key, x) {
        char *end = NULL;
        long size = strtol(key, &end, 10);
        if (!end || *end || size < 1 || size > (long)c->max_size)
            return gs_fail(err, GS_ERR_INPUT, "%s.max_active_clusters.%s: not a cluster size "
                           "1..%u", where, key, c->max_size);
        if (!json_is_integer(x) || json_integer_value(x) < 1 || json_integer_value(x) > 65536)
            return gs_fail(err, GS_ERR_INPUT, "%s.max_active_clusters.%s: must be a whole "
                           "number 1..65536", where, key);
        c->max_active[size] = (int)json_integer_value(x);
    }
    return 0;
}

static int parse_tma(const json_t *j, const char *where, struct sim_cluster *c, gs_error *err)
{
    static const char *const keys[] = {"comment", "bulk_l2_gbps", "bulk_dram_gbps",
                                       "vector_l2_gbps", "vector_dram_gbps", "tensor_l2_gbps",
                                       "tensor_dram_gbps", "bulk_latency_base_cycles",
                                       "bulk_latency_cycles_per_kb", "load_latency_base_cycles",
                                       "load_latency_cycles_per_kb", "tensor_latency_base_cycles",
                                       "tensor_latency_cycles_per_kb", NULL};
    char path[128];
    snprintf(path, sizeof path, "%s.tma", where);
    int rc = sim_check_keys(j, path, keys, err);
    if (!rc)
        rc = sim_get_double(j, path, "bulk_l2_gbps", 1, &c->bulk_l2_gbps, err);
    if (!rc)
        rc = sim_get_double(j, path, "bulk_dram_gbps", 1, &c->bulk_dram_gbps, err);
    if (!rc)
        rc = sim_get_double(j, path, "vector_l2_gbps", 1, &c->vector_l2_gbps, err);
    if (!rc)
        rc = sim_get_double(j, path, "vector_dram_gbps", 1, &c->vector_dram_gbps, err);
    if (!rc)
        rc = sim_get_double(j, path, "tensor_l2_gbps", 0, &c->tensor_l2_gbps, err);
    if (!rc)
        rc = sim_get_double(j, path, "tensor_dram_gbps", 0, &c->tensor_dram_gbps, err);
    static const char *const lat[6] = {"bulk_latency_base_cycles", "bulk_latency_cycles_per_kb",
                                       "load_latency_base_cycles", "load_latency_cycles_per_kb",
                                       "tensor_latency_base_cycles",
                                       "tensor_latency_cycles_per_kb"};
    double *lat_field[6] = {&c->bulk_latency_base_cycles, &c->bulk_latency_cycles_per_kb,
                            &c->load_latency_base_cycles, &c->load_latency_cycles_per_kb,
                            &c->tensor_latency_base_cycles, &c->tensor_latency_cycles_per_kb};
    for (int k = 0; k < 6 && !rc; k++)
        rc = sim_get_double(j, path, lat[k], 0, lat_field[k], err);
    for (int k = 0; k < 6 && !rc; k += 2)
        if (json_object_get(j, lat[k]) && !(*lat_field[k] > 0))
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: must be above 0 (leave it out: the model "
                         "does not say)", path, lat[k]);
        else if (*lat_field[k + 1] < 0)
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: must be 0 or more", path, lat[k + 1]);
    if (!rc && (c->bulk_l2_gbps <= 0 || c->bulk_dram_gbps <= 0 || c->vector_l2_gbps <= 0 ||
                c->vector_dram_gbps <= 0 || c->tensor_l2_gbps < 0 || c->tensor_dram_gbps < 0 ||
                (json_object_get(j, "tensor_l2_gbps") && c->tensor_l2_gbps == 0) ||
                (json_object_get(j, "tensor_dram_gbps") && c->tensor_dram_gbps == 0)))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: every rate must be above 0", path);
    c->tma = rc == 0;
    return rc;
}

static int parse_rates(const json_t *j, const char *where, struct sim_cluster *c, gs_error *err)
{
    int rc = sim_get_double(j, where, "local_latency_cycles", 1, &c->local_latency_cycles, err);
    if (!rc)
        rc = sim_get_double(j, where, "local_gbps_per_sm", 1, &c->local_gbps_per_sm, err);
    if (!rc)
        rc = sim_get_double(j, where, "remote_gbps_per_sm", 1, &c->remote_gbps_per_sm, err);
    if (!rc)
        rc = sim_get_double(j, where, "jitter_fraction", 0, &c->jitter_fraction, err);
    if (!rc && (c->local_gbps_per_sm <= 0 || c->remote_gbps_per_sm <= 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: local_gbps_per_sm and remote_gbps_per_sm must be "
                     "above 0", where);
    if (!rc && c->jitter_fraction >= 1)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.jitter_fraction: must be in [0, 1)", where);
    return rc;
}

int sim_cluster_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "max_size", "max_active_clusters",
                                       "local_latency_cycles", "remote_latency_cycles",
                                       "local_gbps_per_sm", "remote_gbps_per_sm",
                                       "jitter_fraction", "tma", NULL};
    uint64_t max_size = 0;
    struct sim_cluster *c = calloc(1, sizeof *c);
    if (!c)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = sim_get_uint(json, where, "max_size", 1, &max_size, err);
    if (!rc && max_size != PORTABLE_SIZE && max_size != SIM_CLUSTER_MAX)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.max_size: must be 8 (portable sizes only) or 16 "
                     "(the non-portable size allowed)", where);
    c->max_size = (unsigned)max_size;
    if (!rc)
        rc = parse_remote_latency(json, where, c, err);
    if (!rc)
        rc = parse_max_active(json, where, c, err);
    if (!rc)
        rc = parse_rates(json, where, c, err);
    if (!rc && json_object_get(json, "tma"))
        rc = parse_tma(json_object_get(json, "tma"), where, c, err);
    if (rc) {
        free(c);
        return rc;
    }
    sim_cluster_free(m);
    m->cluster = c;
    return 0;
}

void sim_cluster_free(gs_sim_model *m)
{
    free(m->cluster);
    m->cluster = NULL;
}

/* ---- the cluster operation ------------------------------------------------------------------ */
static int max_active(const gs_sim_model *m, unsigned size)
{
    const struct sim_cluster *c = m->cluster;
    if (size < 1 || size > c->max_size)
        return 0;
    return c->max_active[size] ? c->max_active[size] : m->info.sm_count / (int)size;
}

/* Seconds of each repetition: bytes at gbps, stretched by up to the jitter fraction. */
static void timed(gs_sim_model *m, double bytes, double gbps, const gs_cluster_plan *plan,
                  gs_cluster_result *out)
{
    for (unsigned r = 0; r < plan->repeats; r++)
        out->values[r] = bytes / (gbps * 1e9) *
                         (1 + m->cluster->jitter_fraction * gs_rng_unit(&m->rng));
    out->n = plan->repeats;
    out->bytes_moved = (uint64_t)bytes;
}

static void latency(gs_sim_model *m, const gs_cluster_plan *plan, gs_cluster_result *out)
{
    const struct sim_cluster *c = m->cluster;
    double truth = plan->kind == GS_CLUSTER_LOCAL_LATENCY || plan->rank == 0
                 ? c->local_latency_cycles : c->remote_latency_cycles[plan->rank];
    for (unsigned r = 0; r < plan->repeats; r++)
        out->values[r] = truth + gs_sim_noise(m);
    out->n = plan->repeats;
}

/* The copy kinds: the footprint (the tensor copy's in whole bands) at the model's rate for its
 * level; a tensor copy the model gives no rate for is unsupported. */
static int copy(gs_sim_model *m, const gs_cluster_plan *plan, gs_cluster_result *out,
                gs_error *err)
{
    const struct sim_cluster *c = m->cluster;
    bool l2 = plan->bytes <= m->info.l2_bytes / 2;
    uint64_t bytes = plan->bytes;
    double gbps = l2 ? c->vector_l2_gbps : c->vector_dram_gbps;
    if (plan->kind == GS_CLUSTER_BULK_COPY)
        gbps = l2 ? c->bulk_l2_gbps : c->bulk_dram_gbps;
    if (plan->kind == GS_CLUSTER_TENSOR_COPY) {
        gbps = l2 ? c->tensor_l2_gbps : c->tensor_dram_gbps;
        if (gbps <= 0)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "the model gives no cluster.tma.%s (the "
                           "tensor-map copy's rate)", l2 ? "tensor_l2_gbps" : "tensor_dram_gbps");
        bytes = bytes / TENSOR_BAND_BYTES * TENSOR_BAND_BYTES;
        if (bytes == 0)
            return gs_fail(err, GS_ERR_USAGE, "cluster tensor-copy: bytes under one %u-byte band "
                           "of boxes", TENSOR_BAND_BYTES);
    }
    uint64_t passes = plan->traffic_bytes > bytes ? (plan->traffic_bytes + bytes - 1) / bytes : 1;
    out->blocks = 2u * (unsigned)m->info.sm_count;
    out->sms_used = (unsigned)m->info.sm_count;
    timed(m, (double)bytes * (double)passes, gbps, plan, out);
    return 0;
}

/* The model's base and per-KB cycles of a latency kind, and the key its base is given by. */
static void transfer_model(const struct sim_cluster *c, gs_cluster_kind k, double *base,
                           double *per_kb, const char **key)
{
    if (k == GS_CLUSTER_BULK_LATENCY) {
        *base = c->bulk_latency_base_cycles;
        *per_kb = c->bulk_latency_cycles_per_kb;
        *key = "bulk_latency_base_cycles";
    } else if (k == GS_CLUSTER_TENSOR_LATENCY) {
        *base = c->tensor_latency_base_cycles;
        *per_kb = c->tensor_latency_cycles_per_kb;
        *key = "tensor_latency_base_cycles";
    } else {
        *base = c->load_latency_base_cycles;
        *per_kb = c->load_latency_cycles_per_kb;
        *key = "load_latency_base_cycles";
    }
}

double sim_cluster_transfer_truth(const gs_sim_model *m, gs_cluster_kind k, uint64_t bytes)
{
    double base, per_kb;
    const char *key;
    if (!m->cluster || !m->cluster->tma || m->info.cc_major < 9 ||
        (k != GS_CLUSTER_BULK_LATENCY && k != GS_CLUSTER_LOAD_LATENCY &&
         k != GS_CLUSTER_TENSOR_LATENCY))
        return NAN;
    transfer_model(m->cluster, k, &base, &per_kb, &key);
    return base > 0 ? base + per_kb * (double)bytes / 1024 : NAN;
}

/* The latency kinds: one transfer's cycles from the model, plus its jitter. A tensor transfer
 * must make a box (gs_cluster_tensor_box), as on a device. */
static int transfer(gs_sim_model *m, const gs_cluster_plan *plan, gs_cluster_result *out,
                    gs_error *err)
{
    double base, per_kb;
    const char *key;
    unsigned box_words, box_rows;
    transfer_model(m->cluster, plan->kind, &base, &per_kb, &key);
    if (plan->bytes < 16 || plan->bytes > TRANSFER_MAX_BYTES || plan->bytes % 16)
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: bytes %llu; a multiple of 16 from 16 to "
                       "%u", gs_cluster_kind_name(plan->kind), (unsigned long long)plan->bytes,
                       TRANSFER_MAX_BYTES);
    if (plan->kind == GS_CLUSTER_TENSOR_LATENCY &&
        gs_cluster_tensor_box(plan->bytes, &box_words, &box_rows))
        return gs_fail(err, GS_ERR_USAGE, "cluster tensor-latency: bytes %llu make no box (a "
                       "multiple of 16 up to %u, else of %u)", (unsigned long long)plan->bytes,
                       GS_CLUSTER_TENSOR_BOX_ROW_BYTES, GS_CLUSTER_TENSOR_BOX_ROW_BYTES);
    if (!(base > 0))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model gives no cluster.tma.%s", key);
    for (unsigned r = 0; r < plan->repeats; r++)
        out->values[r] = base + per_kb * (double)plan->bytes / 1024 + gs_sim_noise(m);
    out->n = plan->repeats;
    out->blocks = 1;
    out->sms_used = 1;
    out->bytes_moved = plan->bytes;
    return 0;
}

static int check_plan(const gs_sim_model *m, const gs_cluster_plan *p, const gs_cluster_result *o,
                      gs_error *err)
{
    if ((unsigned)p->kind >= GS_CLUSTER_KIND_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "cluster: unknown kind %d", (int)p->kind);
    if (m->info.cc_major < 9)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "needs compute capability 9.0+ (the model is "
                       "%d.%d)", m->info.cc_major, m->info.cc_minor);
    if (!m->cluster)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no cluster section");
    if (p->kind != GS_CLUSTER_QUERY && (p->repeats == 0 || !o->values))
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: needs repeats and a values array",
                       gs_cluster_kind_name(p->kind));
    bool copies = p->kind == GS_CLUSTER_BULK_COPY || p->kind == GS_CLUSTER_VECTOR_COPY ||
                  p->kind == GS_CLUSTER_TENSOR_COPY || p->kind == GS_CLUSTER_BULK_LATENCY ||
                  p->kind == GS_CLUSTER_LOAD_LATENCY || p->kind == GS_CLUSTER_TENSOR_LATENCY;
    if (!copies && (p->cluster_size < 1 || p->cluster_size > SIM_CLUSTER_MAX ||
                    p->rank >= p->cluster_size))
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: size %u and rank %u (size 1..16, rank "
                       "below it)", gs_cluster_kind_name(p->kind), p->cluster_size, p->rank);
    if (copies && p->bytes == 0)
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: needs bytes", gs_cluster_kind_name(p->kind));
    if (copies && !m->cluster->tma)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model's cluster section has no tma part");
    return 0;
}

int sim_cluster(gs_sim_model *m, const gs_cluster_plan *plan, gs_cluster_result *out,
                gs_error *err)
{
    int rc = check_plan(m, plan, out, err);
    if (rc)
        return rc;
    const struct sim_cluster *c = m->cluster;
    out->n = 0;
    out->max_cluster_size = (int)c->max_size;
    if (plan->kind == GS_CLUSTER_BULK_LATENCY || plan->kind == GS_CLUSTER_LOAD_LATENCY ||
        plan->kind == GS_CLUSTER_TENSOR_LATENCY)
        return transfer(m, plan, out, err);
    if (plan->kind == GS_CLUSTER_BULK_COPY || plan->kind == GS_CLUSTER_VECTOR_COPY ||
        plan->kind == GS_CLUSTER_TENSOR_COPY)
        return copy(m, plan, out, err);
    out->max_active_clusters = max_active(m, plan->cluster_size);
    out->allowed = out->max_active_clusters > 0;
    out->why[0] = '\0';
    if (!out->allowed)
        snprintf(out->why, sizeof out->why, "cluster size %u is above the largest allowed (%u)",
                 plan->cluster_size, c->max_size);
    if (plan->kind == GS_CLUSTER_QUERY)
        return 0;
    if (!out->allowed)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "%s", out->why);
    if (plan->kind != GS_CLUSTER_BANDWIDTH) {
        latency(m, plan, out);
        return 0;
    }
    unsigned blocks = (unsigned)out->max_active_clusters * plan->cluster_size;
    unsigned sms = blocks < (unsigned)m->info.sm_count ? blocks : (unsigned)m->info.sm_count;
    double gbps = (plan->rank == 0 ? c->local_gbps_per_sm : c->remote_gbps_per_sm) * sms;
    out->blocks = blocks;
    out->sms_used = sms;
    timed(m, (double)plan->bytes * blocks, gbps, plan, out);
    return 0;
}
