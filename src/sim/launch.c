/* Simulator: the "launch" section of a model file (docs/sim-models.md) and the launch operation
 * (plan/launch.h). The section states what each kind costs in ns: a launch call (stream, graph),
 * an empty kernel's launch to completion, a synchronize of an idle stream, an event's round trip,
 * an empty kernel's time between two events and the events' resolution, one grid sync and one
 * cluster sync, each the median of what the kind measures. Each timing is the stated cost moved
 * by up to +-jitter_fraction of it, uniformly, so the median of many timings is the cost; an
 * elapsed time between events is rounded to whole steps of the resolution. A kind the section
 * does not state, and a cluster sync below cc 9.0, answers GS_ERR_UNSUPPORTED. */
#include <math.h>
#include <stdlib.h>

#include "sim/sim.h"

struct sim_launch {
    double ns[GS_LAUNCH_KIND_COUNT];   /* NAN: not stated */
    double event_resolution_ns;        /* 0: not stated */
    double jitter_fraction;
};

/* The model key of each kind's cost, in plan order. */
static const char *const kind_keys[GS_LAUNCH_KIND_COUNT] = {
    "stream_launch_ns", "graph_launch_ns", "complete_ns", "sync_idle_ns",
    "event_round_trip_ns", "event_elapsed_ns", "grid_sync_ns", "cluster_sync_ns"};

int sim_launch_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {
        "comment", "stream_launch_ns", "graph_launch_ns", "complete_ns", "sync_idle_ns",
        "event_round_trip_ns", "event_elapsed_ns", "event_resolution_ns", "grid_sync_ns",
        "cluster_sync_ns", "jitter_fraction", NULL};
    struct sim_launch *l = calloc(1, sizeof *l);
    if (!l)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    m->launch = l;
    int rc = sim_check_keys(json, where, keys, err);
    for (int k = 0; k < GS_LAUNCH_KIND_COUNT; k++) {
        l->ns[k] = NAN;
        if (!rc)
            rc = sim_get_double(json, where, kind_keys[k], 0, &l->ns[k], err);
        if (!rc && l->ns[k] == 0)
            rc = gs_fail(err, GS_ERR_INPUT, "%s.%s: must be > 0 (leave it out: the model does "
                         "not say)", where, kind_keys[k]);
    }
    if (!rc)
        rc = sim_get_double(json, where, "event_resolution_ns", 0, &l->event_resolution_ns, err);
    if (!rc)
        rc = sim_get_double(json, where, "jitter_fraction", 0, &l->jitter_fraction, err);
    if (!rc && l->event_resolution_ns > 0 && isnan(l->ns[GS_LAUNCH_EVENT_ELAPSED]))
        rc = gs_fail(err, GS_ERR_INPUT, "%s.event_resolution_ns: needs event_elapsed_ns, the "
                     "time it resolves", where);
    return rc;
}

void sim_launch_free(gs_sim_model *m)
{
    free(m->launch);
    m->launch = NULL;
}

/* What the section states for a kind (NAN: nothing, or no section). */
double sim_launch_truth(const gs_sim_model *m, gs_launch_kind k, double *resolution_ns,
                        double *jitter_fraction)
{
    if (!m->launch || (unsigned)k >= GS_LAUNCH_KIND_COUNT)
        return NAN;
    if (resolution_ns)
        *resolution_ns = m->launch->event_resolution_ns;
    if (jitter_fraction)
        *jitter_fraction = m->launch->jitter_fraction;
    return m->launch->ns[k];
}

int sim_launch(gs_sim_model *m, const gs_launch_plan *p, gs_launch_result *out, gs_error *err)
{
    const struct sim_launch *l = m->launch;
    out->n = 0;
    out->blocks = 0;
    if ((unsigned)p->kind >= GS_LAUNCH_KIND_COUNT || p->repeats == 0)
        return gs_fail(err, GS_ERR_USAGE, "launch plan needs a known kind and repeats >= 1");
    if (!l)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model has no \"launch\" section");
    if (p->kind == GS_LAUNCH_CLUSTER_SYNC && m->info.cc_major < 9)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "needs cc 9.0 (thread-block clusters); the "
                       "model is %d.%d", m->info.cc_major, m->info.cc_minor);
    double ns = l->ns[p->kind];
    if (isnan(ns))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the model's \"launch\" section does not state "
                       "%s", kind_keys[p->kind]);
    for (unsigned r = 0; r < p->repeats; r++) {
        double v = ns * (1 + l->jitter_fraction * (2 * gs_rng_unit(&m->rng) - 1));
        if (p->kind == GS_LAUNCH_EVENT_ELAPSED && l->event_resolution_ns > 0)
            v = l->event_resolution_ns * floor(v / l->event_resolution_ns + 0.5);
        out->values[out->n++] = v;
    }
    if (p->kind == GS_LAUNCH_GRID_SYNC || p->kind == GS_LAUNCH_CLUSTER_SYNC)
        out->blocks = (unsigned)m->info.sm_count;
    return 0;
}
