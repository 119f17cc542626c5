/* Simulator: the "node" section of a model file (docs/sim-models.md), several devices of the same
 * model and the links between them, and the p2p operation that answers from that link matrix.
 * links[i][j] is the path for data flowing from device i's memory to device j (row: source,
 * column: destination); the diagonal is null. A link of type "none" has no peer access: kernels
 * and chases across it are refused as the driver refuses them, and a copy-engine copy runs only
 * when the link states the rate of the copy staged through the host ("gbps"). Each repetition
 * takes bytes / rate with the section's relative jitter; a chase's load takes the link's latency
 * plus the model's cycle noise (gs_sim_noise) at the model's clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "util/utf8.h"

typedef struct sim_link {
    char type[8];                 /* "nvlink", "pcie", "none" */
    double gbps;                  /* copy engine; for "none", the staged copy (0: none) */
    double read_gbps, write_gbps; /* the copy kernels (default gbps) */
    double latency_ns;            /* one dependent load across the link */
    int performance_rank;         /* -1 when the model does not say */
    int atomics;                  /* 1 or 0 */
    char note[64];
} sim_link;

struct sim_node {
    int devices;
    double jitter_fraction;
    sim_link *links;              /* devices x devices, row-major; the diagonal unused */
};

static const char *const link_types[] = {"nvlink", "pcie", "none", NULL};

static int parse_type(const json_t *j, const char *where, sim_link *l, gs_error *err)
{
    const char *type = NULL;
    int rc = sim_get_string(j, where, "type", 1, &type, err);
    if (rc)
        return rc;
    for (const char *const *t = link_types; *t; t++)
        if (strcmp(*t, type) == 0) {
            snprintf(l->type, sizeof l->type, "%s", type);
            return 0;
        }
    return gs_fail(err, GS_ERR_INPUT, "%s.type: '%.40s' is not one of nvlink, pcie, none", where,
                   type);
}

/* The rates and latency: required on a link with peer access, only "gbps" on one without. */
static int parse_rates(const json_t *j, const char *where, sim_link *l, gs_error *err)
{
    bool peer = strcmp(l->type, "none") != 0;
    int rc = sim_get_double(j, where, "gbps", peer, &l->gbps, err);
    if (!rc && !peer && (json_object_get(j, "read_gbps") || json_object_get(j, "write_gbps") ||
                         json_object_get(j, "latency_ns")))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: a link of type none has no peer access, so no "
                     "read_gbps, write_gbps or latency_ns (gbps alone: the copy staged through "
                     "the host)", where);
    l->read_gbps = l->write_gbps = l->gbps;
    if (!rc)
        rc = sim_get_double(j, where, "read_gbps", 0, &l->read_gbps, err);
    if (!rc)
        rc = sim_get_double(j, where, "write_gbps", 0, &l->write_gbps, err);
    if (!rc)
        rc = sim_get_double(j, where, "latency_ns", peer, &l->latency_ns, err);
    if (!rc && peer && !(l->gbps > 0 && l->read_gbps > 0 && l->write_gbps > 0 &&
                         l->latency_ns > 0))
        rc = gs_fail(err, GS_ERR_INPUT, "%s: gbps, read_gbps, write_gbps and latency_ns must be "
                     "> 0 on a link with peer access", where);
    return rc;
}

static int parse_link(const json_t *j, const char *where, sim_link *l, gs_error *err)
{
    static const char *const keys[] = {"type", "gbps", "read_gbps", "write_gbps", "latency_ns",
                                       "performance_rank", "atomics", "note", NULL};
    uint64_t rank = 0;
    const char *note = "";
    int rc = sim_check_keys(j, where, keys, err);
    if (!rc)
        rc = parse_type(j, where, l, err);
    if (!rc)
        rc = parse_rates(j, where, l, err);
    if (!rc)
        rc = sim_get_uint(j, where, "performance_rank", 0, &rank, err);
    if (!rc)
        rc = sim_get_string(j, where, "note", 0, &note, err);
    json_t *atomics = json_object_get(j, "atomics");
    if (!rc && atomics && !json_is_boolean(atomics))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.atomics: must be true or false", where);
    l->performance_rank = json_object_get(j, "performance_rank") ? (int)rank : -1;
    l->atomics = json_is_true(atomics);
    gs_utf8_copy(l->note, sizeof l->note, note);
    return rc;
}

/* "links": devices rows of devices entries, null on the diagonal and links elsewhere. */
static int parse_links(const json_t *rows, const char *where, struct sim_node *n, gs_error *err)
{
    char path[300];
    if (!json_is_array(rows) || (int)json_array_size(rows) != n->devices)
        return gs_fail(err, GS_ERR_INPUT, "%s.links: must be a list of %d rows (one per source "
                       "device)", where, n->devices);
    for (int i = 0; i < n->devices; i++) {
        json_t *row = json_array_get(rows, (size_t)i);
        if (!json_is_array(row) || (int)json_array_size(row) != n->devices)
            return gs_fail(err, GS_ERR_INPUT, "%s.links[%d]: must be a list of %d entries (one "
                           "per destination device)", where, i, n->devices);
        for (int k = 0; k < n->devices; k++) {
            json_t *cell = json_array_get(row, (size_t)k);
            snprintf(path, sizeof path, "%s.links[%d][%d]", where, i, k);
            if (i == k && !json_is_null(cell))
                return gs_fail(err, GS_ERR_INPUT, "%s: must be null (a device to itself)", path);
            int rc = i == k ? 0 : parse_link(cell, path, &n->links[i * n->devices + k], err);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int sim_node_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"comment", "devices", "jitter_fraction", "links", NULL};
    uint64_t devices = 0;
    struct sim_node *n = calloc(1, sizeof *n);
    if (!n)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = sim_get_uint(json, where, "devices", 1, &devices, err);
    if (!rc)
        rc = sim_get_double(json, where, "jitter_fraction", 0, &n->jitter_fraction, err);
    if (!rc && n->jitter_fraction >= 1)
        rc = gs_fail(err, GS_ERR_INPUT, "%s.jitter_fraction: must be in [0, 1)", where);
    n->devices = (int)devices;
    if (!rc && !(n->links = calloc(devices * devices, sizeof *n->links)))
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    if (!rc && devices > 1)
        rc = parse_links(json_object_get(json, "links"), where, n, err);
    if (!rc && devices == 1 && json_object_get(json, "links"))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.links: a node of one device has no links", where);
    if (rc) {
        free(n->links);
        free(n);
        return rc;
    }
    sim_node_free(m);
    m->node = n;
    m->info.node_devices = n->devices;
    return 0;
}

void sim_node_free(gs_sim_model *m)
{
    if (m->node)
        free(m->node->links);
    free(m->node);
    m->node = NULL;
}

/* ---- the p2p operation ---------------------------------------------------------------------- */
static void answer_access(const sim_link *l, gs_p2p_result *out)
{
    out->access_possible = strcmp(l->type, "none") != 0;
    out->performance_rank = l->performance_rank;
    out->native_atomics = l->atomics;
    snprintf(out->link, sizeof out->link, "%s", l->type);
    snprintf(out->link_detail, sizeof out->link_detail, "%s", l->note);
}

static double rate_gbps(const sim_link *l, gs_p2p_kind kind)
{
    return kind == GS_P2P_KERNEL_READ ? l->read_gbps
         : kind == GS_P2P_KERNEL_WRITE ? l->write_gbps : l->gbps;
}

/* Seconds per load of each repetition: the link's latency plus the model's noise in cycles. */
static void chase(gs_sim_model *m, const sim_link *l, const gs_p2p_plan *plan, gs_p2p_result *out)
{
    double ghz = m->info.sm_clock_khz * 1e-6, sum_ns = 0;
    for (unsigned r = 0; r < plan->repeats; r++) {
        double ns = l->latency_ns + gs_sim_noise(m) / ghz;
        out->seconds[r] = ns * 1e-9;
        sum_ns += ns;
    }
    out->latency_cycles = sum_ns / plan->repeats * ghz;
}

static int check_plan(const gs_sim_model *m, const gs_p2p_plan *p, const gs_p2p_result *out,
                      gs_error *err)
{
    int devices = m->node ? m->node->devices : 1;
    if (p->src_device < 0 || p->dst_device < 0 || p->src_device >= devices ||
        p->dst_device >= devices || p->src_device == p->dst_device)
        return gs_fail(err, GS_ERR_USAGE, "p2p: devices %d -> %d are not two devices of this "
                       "node of %d", p->src_device, p->dst_device, devices);
    if ((unsigned)p->kind >= GS_P2P_KIND_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "p2p: unknown kind %d", (int)p->kind);
    if (p->kind != GS_P2P_QUERY && (p->repeats == 0 || p->bytes == 0 || !out->seconds))
        return gs_fail(err, GS_ERR_USAGE, "p2p %s: needs repeats, bytes and a seconds array",
                       gs_p2p_kind_name(p->kind));
    return 0;
}

int sim_p2p(gs_sim_model *m, const gs_p2p_plan *plan, gs_p2p_result *out, gs_error *err)
{
    int rc = check_plan(m, plan, out, err);
    if (rc)
        return rc;
    const sim_link *l = &m->node->links[plan->src_device * m->node->devices + plan->dst_device];
    answer_access(l, out);
    out->n = 0;
    if (plan->kind == GS_P2P_QUERY)
        return 0;
    if (plan->kind != GS_P2P_COPY_ENGINE && !out->access_possible)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "p2p %s: device %d cannot access device %d's "
                       "memory (link none)", gs_p2p_kind_name(plan->kind), plan->dst_device,
                       plan->src_device);
    if (plan->kind == GS_P2P_COPY_ENGINE && l->gbps <= 0)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "p2p ce: the model gives no copy between device "
                       "%d and device %d (link none without gbps)", plan->src_device,
                       plan->dst_device);
    if (plan->kind == GS_P2P_LATENCY) {
        chase(m, l, plan, out);
    } else {
        double base_s = (double)plan->bytes / (rate_gbps(l, plan->kind) * 1e9);
        for (unsigned r = 0; r < plan->repeats; r++)
            out->seconds[r] = base_s * (1 + m->node->jitter_fraction * gs_rng_unit(&m->rng));
        out->bytes_moved = plan->bytes;
    }
    out->n = plan->repeats;
    return 0;
}
