/* The cross-check (docs/methods.md, "Cross-check"): one table of the structures that several
 * probes measure, each view a figure of a record named by probe, level and figure, with the
 * instruction sequence its timed loop holds and how that sequence relates to the quoted one.
 * A view of the same sequence must agree with the quoted figure within the intervals and the
 * structure's tolerance; a view whose sequence holds more (a trace's store and clock read, an
 * add in each hop) may only lie above it, a lower bound only below it, and then the difference
 * is "apart" with its reason named. Anything else is "unexplained". Computed from the records
 * alone, so a saved document gets the same verdicts as the run that wrote it. */
#include "result/crosscheck.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* How a view's sequence relates to the quoted one: it measures the same thing, more (its
 * sequence holds the quoted one and something else), or a lower bound. */
enum { XC_BELOW = -1, XC_SAME = 0, XC_ABOVE = 1 };

typedef struct xc_view {
    const char *probe;      /* record name */
    const char *level;      /* params.level, or NULL for any */
    const char *figure;
    int relation;
    const char *sequence;   /* what the timed loop holds */
    const char *reason;     /* why it may differ (relation != XC_SAME) */
    const char *space;      /* params.space must be this (pchase), or NULL */
} xc_view;

typedef struct xc_structure {
    const char *name;
    const char *unit;
    double tol_abs, tol_rel;
    const char *tol_why;
    xc_view views[10];      /* the first present XC_SAME view is quoted; ended by probe NULL */
} xc_structure;

static const char lat_tol[] =
    "1 cycle or 2 %: clock64 counts whole cycles and a chain's average carries up to a cycle "
    "of loop and drain cost; walks of other orders and footprints on one level spread 2 %";
static const char size_tol[] =
    "a 32nd: an average sweep bisects a plateau's end to a 64th of the footprint, once on "
    "each side";
static const char bw_tol[] =
    "3 %: DRAM rates of kernels of other shapes (grid, element width, order) on one card";

static const char seq_avg_ldg[] = "average: j = *j, one LDG per hop, clock64 around the chain";
static const char seq_trace[] = "trace: clock, load, store of the cursor, clock per access";
static const char why_trace[] = "the trace times its own store and clock read with each load";
static const char seq_patterns[] = "trace of 16 lines, less the trace's own measured cost";
static const char seq_eq6[] = "Eq. 6 level of a Sattolo random walk, average mode";

static const xc_structure structures[] = {
    {"L1 hit latency", "cycles", 1, 0.02, lat_tol, {
        {"cache", "l1", "hit_latency_cycles", XC_SAME, seq_avg_ldg, NULL, NULL},
        {"global-patterns", NULL, "latency_l1_hit_ca_cycles", XC_SAME, seq_patterns, NULL, NULL},
        {"global-patterns", NULL, "latency_l1_hit_default_cycles", XC_SAME, seq_patterns, NULL,
         NULL},
        {"random-walk", NULL, "global_level1_latency_cycles", XC_SAME, seq_eq6, NULL, NULL},
        {"cache", "l1", "trace_hit_latency_cycles", XC_ABOVE, seq_trace, why_trace, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"read-only (nc) hit latency", "cycles", 1, 0.02, lat_tol, {
        {"cache", "ro", "hit_latency_cycles", XC_SAME, "average: j = *j, one LDG.CONSTANT per "
         "hop, clock64 around the chain", NULL, NULL},
        {"global-patterns", NULL, "latency_l1_hit_nc_cycles", XC_SAME, seq_patterns, NULL, NULL},
        {"cache", "ro", "trace_hit_latency_cycles", XC_ABOVE, seq_trace, why_trace, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"texture hit latency", "cycles", 1, 0.02, lat_tol, {
        {"cache", "tex", "hit_latency_cycles", XC_SAME, "average: j = tex1Dfetch(t, j), "
         "clock64 around the chain", NULL, NULL},
        {"cache", "tex", "trace_hit_latency_cycles", XC_ABOVE, seq_trace, why_trace, NULL},
        {"pchase", NULL, "avg_latency_cycles", XC_ABOVE, "pchase --space texture: a trace or "
         "average of the user's walk", "the walk is the user's: its own stride and footprint",
         "texture"},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"L1 size", "B", 0, 1.0 / 32, size_tol, {
        {"cache", "l1", "size_bytes", XC_SAME, "largest footprint whose trace has no repeating "
         "miss (stride chain)", NULL, NULL},
        {"random-walk", NULL, "global_level1_capacity_bytes", XC_SAME, "Eq. 6 step of a Sattolo "
         "random walk over sizes", NULL, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"L2 hit latency (near)", "cycles", 1, 0.02, lat_tol, {
        {"cache", "l2", "near_hit_latency_cycles", XC_SAME, "average: j = *j, one LDG.CG per "
         "hop, from one SM", NULL, NULL},
        {"cache", "l2", "hit_latency_sm_median_cycles", XC_SAME, "average on the L2 path, the "
         "median over SMs", NULL, NULL},
        {"global-patterns", NULL, "latency_l2_hit_cg_cycles", XC_SAME, seq_patterns, NULL, NULL},
        {"random-walk", NULL, "global_level2_latency_cycles", XC_SAME, seq_eq6, NULL, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"L2 near part size", "B", 0, 1.0 / 32, size_tol, {
        {"cache", "l2", "near_size_bytes", XC_SAME, "end of the first L2 plateau of an average "
         "sweep from one SM", NULL, NULL},
        {"random-walk", NULL, "global_level2_capacity_bytes", XC_SAME, "Eq. 6 step of a Sattolo "
         "random walk over sizes", NULL, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"DRAM latency (L2 miss)", "cycles", 1, 0.02, lat_tol, {
        {"global-patterns", NULL, "latency_l2_miss_default_cycles", XC_SAME, "trace of a cold "
         "walk inside 64 KB blocks, less the trace's cost", NULL, NULL},
        {"global-patterns", NULL, "latency_l2_miss_cg_cycles", XC_SAME, "the same on the L2 path "
         "(LDG.CG)", NULL, NULL},
        {"random-walk", NULL, "global_level3_latency_cycles", XC_SAME, seq_eq6, NULL, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"shared-memory latency", "cycles", 1, 0.02, lat_tol, {
        {"smem-banks", NULL, "latency_w4_stride1_cycles", XC_SAME, "load-to-use: LDS whose "
         "address is the last LDS's value", NULL, NULL},
        {"random-walk", NULL, "shared_level1_latency_cycles", XC_SAME, "Sattolo walk: LDS "
         "[offset + base register] per hop", NULL, NULL},
        {"pchase", NULL, "avg_latency_cycles", XC_ABOVE, "pchase --space shared: a trace or "
         "average of the user's walk", "a trace times its own store and clock read", "shared"},
        {"cluster", NULL, "local_smem_latency_cycles", XC_ABOVE, "chase step: an add of the "
         "base, then LDS, per hop", "each hop adds the chain's base before its LDS", NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"constant L1 hit latency", "cycles", 1, 0.02, lat_tol, {
        {"random-walk", NULL, "constant_level1_latency_cycles", XC_SAME, "Eq. 6 level of a "
         "Sattolo walk: LDC per hop, average", NULL, NULL},
        {"cache", "const1", "hit_latency_cycles", XC_ABOVE, "trace: clock, LDC, store of the "
         "cursor, clock per access", why_trace, NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"constant L1 size", "B", 0, 1.0 / 32, size_tol, {
        {"random-walk", NULL, "constant_level1_capacity_bytes", XC_SAME, "Eq. 6 step of a "
         "Sattolo walk over sizes: the capacity", NULL, NULL},
        {"cache", "const1", "size_bytes", XC_BELOW, "largest stride chain whose trace has no "
         "repeating miss", "a lower bound: the kernel's own constants keep lines of that "
         "cache, and a stride chain overflows their set first", NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
    {"DRAM copy bandwidth", "GB/s", 0, 0.03, bw_tol, {
        {"mem-bandwidth", NULL, "dram_copy_gbps", XC_SAME, "copy of tiles in address order, the "
         "best element width", NULL, NULL},
        {"bandwidth", NULL, "best_copy_gbps", XC_SAME, "copy kernel of Eq. 7, the best element "
         "width and grid", NULL, NULL},
        {"bandwidth", NULL, "memcpy_d2d_gbps", XC_SAME, "cudaMemcpy device to device", NULL,
         NULL},
        {NULL, NULL, NULL, 0, NULL, NULL, NULL}}},
};

static const char *param_string(const json_t *rec, const char *key)
{
    return json_string_value(json_object_get(json_object_get(rec, "params"), key));
}

/* The record of view v in doc (the first ok one that matches), or NULL. */
static const json_t *record_of(const json_t *doc, const xc_view *v)
{
    size_t i;
    const json_t *rec;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *level = param_string(rec, "level"), *space = param_string(rec, "space");
        if (!name || strcmp(name, v->probe) != 0)
            continue;
        if (v->level && (!level || strcmp(level, v->level) != 0))
            continue;
        if (v->space && (!space || strcmp(space, v->space) != 0))
            continue;
        return rec;
    }
    return NULL;
}

typedef struct xc_seen {
    const xc_view *view;
    const json_t *rec;
    double value, ci95;
} xc_seen;

/* Whether view v has a numeric figure in doc; fills s. */
static bool seen(const json_t *doc, const xc_view *v, xc_seen *s)
{
    const json_t *rec = record_of(doc, v);
    const json_t *f = json_object_get(json_object_get(rec, "figures"), v->figure);
    const json_t *value = json_object_get(f, "value"), *ci = json_object_get(f, "ci95");
    if (!json_is_number(value) || !isfinite(json_number_value(value)))
        return false;
    double c = json_is_number(ci) ? json_number_value(ci) : 0;
    *s = (xc_seen){v, rec, json_number_value(value), isfinite(c) && c > 0 ? c : 0};
    return true;
}

/* "cache:l1", "random-walk": how a view names its record. */
static void record_key(const xc_seen *s, char *buf, size_t len)
{
    const char *level = param_string(s->rec, "level");
    snprintf(buf, len, "%s%s%s", s->view->probe, level ? ":" : "", level ? level : "");
}

/* The verdict of view s against the quoted view q under tolerance tol, and its reason. */
static const char *verdict(const xc_seen *s, const xc_seen *q, double tol, const char **reason)
{
    double gap = s->value - q->value, room = s->ci95 + q->ci95 + tol;
    int expected = s->view->relation - q->view->relation;
    *reason = NULL;
    if (fabs(gap) <= room)
        return "agree";
    if ((expected > 0 && gap > 0) || (expected < 0 && gap < 0)) {
        *reason = s->view->reason ? s->view->reason : q->view->reason;
        return "apart";
    }
    *reason = expected == 0 ? "the same sequence by design: they should agree"
                            : "on the other side of the quoted figure than its sequence allows";
    return "unexplained";
}

static json_t *view_json(const xc_seen *s, const char *v, const char *reason)
{
    static const char *const rel[] = {"below", "same", "above"};
    char key[96];
    record_key(s, key, sizeof key);
    json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:s, s:s, s:s}", "probe", key,
                          "figure", s->view->figure, "value", s->value, "ci95", s->ci95, "low",
                          s->value - s->ci95, "high", s->value + s->ci95, "sequence",
                          s->view->sequence, "relation", rel[s->view->relation + 1], "verdict", v);
    if (o && reason)
        json_object_set_new(o, "reason", json_string(reason));
    return o;
}

/* One structure's entry, or NULL when fewer than two of its views are in doc. */
static json_t *structure_json(const json_t *doc, const xc_structure *st)
{
    xc_seen s[10];
    size_t n = 0, quote = 0;
    bool have_same = false;
    for (const xc_view *v = st->views; v->probe && n < 10; v++)
        if (seen(doc, v, &s[n])) {
            if (!have_same && v->relation == XC_SAME)
                quote = n, have_same = true;
            n++;
        }
    if (n < 2)
        return NULL;
    double tol = fmax(st->tol_abs, st->tol_rel * fabs(s[quote].value));
    char qkey[96], quoted[160];
    record_key(&s[quote], qkey, sizeof qkey);
    snprintf(quoted, sizeof quoted, "%s %s", qkey, s[quote].view->figure);
    json_t *views = json_array();
    const char *overall = "agree";
    for (size_t i = 0; i < n && views; i++) {
        const char *reason = NULL, *v = i == quote ? "quote" : verdict(&s[i], &s[quote], tol,
                                                                        &reason);
        if (strcmp(v, "unexplained") == 0)
            overall = v;
        else if (strcmp(v, "apart") == 0 && strcmp(overall, "agree") == 0)
            overall = v;
        json_array_append_new(views, view_json(&s[i], v, reason));
    }
    return json_pack("{s:s, s:s, s:s, s:f, s:s, s:s, s:o}", "structure", st->name, "unit",
                     st->unit, "verdict", overall, "tolerance", tol, "tolerance_reason",
                     st->tol_why, "quote", quoted, "views", views);
}

json_t *gs_crosscheck_compute(const json_t *doc)
{
    json_t *list = json_array();
    for (size_t i = 0; list && i < sizeof structures / sizeof structures[0]; i++) {
        json_t *e = structure_json(doc, &structures[i]);
        if (e)
            json_array_append_new(list, e);
    }
    return list;
}

void gs_crosscheck_attach(json_t *doc)
{
    json_t *list = gs_crosscheck_compute(doc);
    if (list)
        json_object_set_new(doc, "crosscheck", list);
}

json_t *gs_crosscheck_of(const json_t *doc)
{
    json_t *own = json_object_get(doc, "crosscheck");
    if (json_is_array(own))
        return json_incref(own);
    return gs_crosscheck_compute(doc);
}
