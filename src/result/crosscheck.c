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
 * sequence holds the quoted one and something else), a lower bound, or something else whose
 * difference may go either way (another party's kernel). */
enum { XC_BELOW = -1, XC_SAME = 0, XC_ABOVE = 1, XC_OTHER = 2 };

/* A figure of a record: probe name, params.level (NULL: any) and figure name. */
typedef struct xc_ref {
    const char *probe, *level, *figure;
} xc_ref;

typedef struct xc_view {
    xc_ref at;
    int relation;
    const char *sequence;   /* what the timed loop holds */
    const char *reason;     /* why it may differ (relation != XC_SAME) */
    const char *space;      /* params.space must be this (pchase), or NULL */
    /* The structure must be there on this path: the first determined of need[] (probe NULL:
     * no condition), and, with cap, the view's own figure cap (a random walk's level capacity)
     * within a factor 1.5 of it: a walk's levels are numbered as it sees them, and its level k
     * is this structure only where its capacity is this structure's size. */
    xc_ref need[2];
    const char *cap;
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
static const char seq_eq6[] = "Eq. 6 level of a Sattolo random walk (default path), average";
static const char seq_paths[] = "paths: a plateau of an average Sattolo walk over footprints "
                                "on that load path";
/* No policy holds a random element with more chance than capacity / array (every access
 * uniform), and random lines fill some sets past their ways before the whole cache is full: a
 * random walk's step sits at the size or before it (a 4-way hashed L1 of 16 KB: 15.9 KB), never
 * after it. */
static const char why_random_sets[] = "random lines fill some sets past their ways before the "
                                      "cache is full (balls into bins): the step comes at the "
                                      "size or before it";
static const char why_default[] = "the default path looks the line up in the L1 first, where "
                                  "the L1 caches global loads";

#define NO_REF {NULL, NULL, NULL}
#define END {NO_REF, 0, NULL, NULL, NULL, {NO_REF, NO_REF}, NULL}
#define NONE {{NULL, NULL, NULL}, {NULL, NULL, NULL}}
#define NEED_L1 {{"cache", "l1", "size_bytes"}, {NULL, NULL, NULL}}
#define NEED_L2 {{"cache", "l2", "near_size_bytes"}, {"cache", "l2", "usable_size_bytes"}}
#define WALK(k) "global_level" #k "_latency_cycles"
#define WALK_CAP(k) "global_level" #k "_capacity_bytes"

static const xc_structure structures[] = {
    {"L1 hit latency", "cycles", 1, 0.02, lat_tol, {
        {{"cache", "l1", "hit_latency_cycles"}, XC_SAME, seq_avg_ldg, NULL, NULL, NONE, NULL},
        {{"global-patterns", NULL, "latency_l1_hit_ca_cycles"}, XC_SAME, seq_patterns, NULL,
         NULL, NEED_L1, NULL},
        {{"global-patterns", NULL, "latency_l1_hit_default_cycles"}, XC_SAME, seq_patterns,
         NULL, NULL, NEED_L1, NULL},
        {{"random-walk", NULL, WALK(1)}, XC_SAME, seq_eq6, NULL, NULL, NEED_L1, WALK_CAP(1)},
        {{"paths", NULL, "ca_l1_latency_cycles"}, XC_SAME, seq_paths, NULL, NULL, NONE, NULL},
        {{"cache", "l1", "trace_hit_latency_cycles"}, XC_ABOVE, seq_trace, why_trace, NULL, NONE,
         NULL},
        END}},
    {"read-only (nc) hit latency", "cycles", 1, 0.02, lat_tol, {
        {{"cache", "ro", "hit_latency_cycles"}, XC_SAME, "average: j = *j, one LDG.CONSTANT per "
         "hop, clock64 around the chain", NULL, NULL, NONE, NULL},
        {{"global-patterns", NULL, "latency_l1_hit_nc_cycles"}, XC_SAME, seq_patterns, NULL,
         NULL, {{"cache", "ro", "size_bytes"}, {NULL, NULL, NULL}}, NULL},
        {{"paths", NULL, "nc_l1_latency_cycles"}, XC_SAME, seq_paths, NULL, NULL, NONE, NULL},
        {{"cache", "ro", "trace_hit_latency_cycles"}, XC_ABOVE, seq_trace, why_trace, NULL, NONE,
         NULL},
        END}},
    {"texture hit latency", "cycles", 1, 0.02, lat_tol, {
        {{"cache", "tex", "hit_latency_cycles"}, XC_SAME, "average: j = tex1Dfetch(t, j), "
         "clock64 around the chain", NULL, NULL, NONE, NULL},
        {{"paths", NULL, "tex_l1_latency_cycles"}, XC_SAME, seq_paths, NULL, NULL, NONE, NULL},
        {{"cache", "tex", "trace_hit_latency_cycles"}, XC_ABOVE, seq_trace, why_trace, NULL, NONE,
         NULL},
        END}},
    {"L1 size", "B", 0, 1.0 / 32, size_tol, {
        {{"cache", "l1", "size_bytes"}, XC_SAME, "largest footprint whose trace has no repeating "
         "miss (stride chain)", NULL, NULL, NONE, NULL},
        {{"random-walk", NULL, WALK_CAP(1)}, XC_BELOW, "Eq. 6 step of a Sattolo random walk over "
         "sizes", why_random_sets, NULL, NONE, NULL},
        END}},
    {"L2 hit latency", "cycles", 1, 0.02, lat_tol, {
        {{"cache", "l2", "near_hit_latency_cycles"}, XC_SAME, "average: j = *j, one LDG.CG per "
         "hop, from one SM", NULL, NULL, NONE, NULL},
        {{"cache", "l2", "hit_latency_sm_median_cycles"}, XC_SAME, "average on the L2 path, the "
         "median over SMs", NULL, NULL, NONE, NULL},
        {{"global-patterns", NULL, "latency_l2_hit_cg_cycles"}, XC_SAME, seq_patterns, NULL, NULL,
         NONE, NULL},
        {{"random-walk", NULL, WALK(1)}, XC_ABOVE, seq_eq6, why_default, NULL, NEED_L2,
         WALK_CAP(1)},
        {{"random-walk", NULL, WALK(2)}, XC_ABOVE, seq_eq6, why_default, NULL, NEED_L2,
         WALK_CAP(2)},
        END}},
    {"L2 size seen by one SM", "B", 0, 1.0 / 32, size_tol, {
        {{"cache", "l2", "near_size_bytes"}, XC_SAME, "end of the first L2 plateau of an average "
         "sweep from one SM", NULL, NULL, NONE, NULL},
        {{"random-walk", NULL, WALK_CAP(2)}, XC_SAME, "Eq. 6 step of a Sattolo random walk over "
         "sizes", NULL, NULL, NEED_L2, WALK_CAP(2)},
        END}},
    {"DRAM latency (L2 miss)", "cycles", 1, 0.02, lat_tol, {
        {{"global-patterns", NULL, "latency_l2_miss_cg_cycles"}, XC_SAME, "trace of a cold walk "
         "inside 64 KB blocks (LDG.CG), less the trace's cost", NULL, NULL, NONE, NULL},
        {{"global-patterns", NULL, "latency_l2_miss_default_cycles"}, XC_ABOVE, "the same on "
         "the default path", why_default, NULL, NONE, NULL},
        {{"random-walk", NULL, WALK(2)}, XC_ABOVE, seq_eq6, why_default, NULL, NEED_L2,
         WALK_CAP(1)},
        {{"random-walk", NULL, WALK(3)}, XC_ABOVE, seq_eq6, why_default, NULL, NEED_L2,
         WALK_CAP(2)},
        END}},
    {"shared-memory latency", "cycles", 1, 0.02, lat_tol, {
        {{"smem-banks", NULL, "latency_w4_stride1_cycles"}, XC_SAME, "load-to-use: LDS whose "
         "address is the last LDS's value", NULL, NULL, NONE, NULL},
        {{"random-walk", NULL, "shared_level1_latency_cycles"}, XC_SAME, "Sattolo walk: LDS "
         "[offset + base register] per hop", NULL, NULL, NONE, NULL},
        {{"pchase", NULL, "avg_latency_cycles"}, XC_ABOVE, "pchase --space shared: a trace or "
         "average of the user's walk", "a trace times its own store and clock read", "shared",
         NONE, NULL},
        {{"cluster", NULL, "local_smem_latency_cycles"}, XC_ABOVE, "chase step: an add of the "
         "base, then LDS, per hop", "each hop adds the chain's base before its LDS", NULL, NONE,
         NULL},
        END}},
    {"constant L1 hit latency", "cycles", 1, 0.02, lat_tol, {
        {{"random-walk", NULL, "constant_level1_latency_cycles"}, XC_SAME, "Eq. 6 level of a "
         "Sattolo walk: LDC per hop, average", NULL, NULL, NONE, NULL},
        {{"cache", "const1", "hit_latency_cycles"}, XC_ABOVE, "trace: clock, LDC, store of the "
         "cursor, clock per access", why_trace, NULL, NONE, NULL},
        END}},
    {"constant L1 size", "B", 0, 1.0 / 32, size_tol, {
        {{"random-walk", NULL, "constant_level1_capacity_bytes"}, XC_SAME, "Eq. 6 step of a "
         "Sattolo walk over sizes: the capacity", NULL, NULL, NONE, NULL},
        {{"cache", "const1", "size_bytes"}, XC_BELOW, "largest stride chain whose trace has no "
         "repeating miss", "a lower bound: the largest stride chain with no systematic "
         "miss, under the capacity where the walk's latency steps", NULL, NONE, NULL},
        END}},
    {"DRAM copy bandwidth", "GB/s", 0, 0.03, bw_tol, {
        {{"mem-bandwidth", NULL, "dram_copy_gbps"}, XC_SAME, "copy of tiles in address order, "
         "the best element width", NULL, NULL, NONE, NULL},
        {{"bandwidth", NULL, "best_copy_gbps"}, XC_SAME, "copy kernel of Eq. 7, the best element "
         "width and grid", NULL, NULL, NONE, NULL},
        {{"bandwidth", NULL, "memcpy_d2d_gbps"}, XC_OTHER, "cudaMemcpy device to device",
         "the driver's copy, whose shape is not ours: it may beat a kernel or fall short", NULL,
         NONE, NULL},
        END}},
};

static const char *param_string(const json_t *rec, const char *key)
{
    return json_string_value(json_object_get(json_object_get(rec, "params"), key));
}

/* The first record of doc named r->probe at r->level (and params.space space when given). */
static const json_t *record_of(const json_t *doc, const xc_ref *r, const char *space)
{
    size_t i;
    const json_t *rec;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *level = param_string(rec, "level"), *sp = param_string(rec, "space");
        if (!name || strcmp(name, r->probe) != 0)
            continue;
        if (r->level && (!level || strcmp(level, r->level) != 0))
            continue;
        if (space && (!sp || strcmp(sp, space) != 0))
            continue;
        return rec;
    }
    return NULL;
}

/* Figure name of rec as a finite number: true and *value, *ci95 (0 when none). */
static bool number_of(const json_t *rec, const char *name, double *value, double *ci95)
{
    const json_t *f = json_object_get(json_object_get(rec, "figures"), name);
    const json_t *v = json_object_get(f, "value"), *ci = json_object_get(f, "ci95");
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return false;
    double c = json_is_number(ci) ? json_number_value(ci) : 0;
    *value = json_number_value(v);
    if (ci95)
        *ci95 = isfinite(c) && c > 0 ? c : 0;
    return true;
}

typedef struct xc_seen {
    const xc_view *view;
    const json_t *rec;
    double value, ci95;
} xc_seen;

/* Whether view v's structure is there on its path (xc_view.need, xc_view.cap). */
static bool needed_there(const json_t *doc, const xc_view *v, const json_t *rec)
{
    if (!v->need[0].probe)
        return true;
    for (int k = 0; k < 2 && v->need[k].probe; k++) {
        double size, cap;
        if (!number_of(record_of(doc, &v->need[k], NULL), v->need[k].figure, &size, NULL))
            continue;
        if (!v->cap)
            return true;
        return number_of(rec, v->cap, &cap, NULL) && cap <= 1.5 * size && size <= 1.5 * cap;
    }
    return false;
}

/* Whether view v has a numeric figure in doc, of its structure; fills s. */
static bool seen(const json_t *doc, const xc_view *v, xc_seen *s)
{
    const json_t *rec = record_of(doc, &v->at, v->space);
    double value, ci95;
    if (!rec || !number_of(rec, v->at.figure, &value, &ci95) || !needed_there(doc, v, rec))
        return false;
    *s = (xc_seen){v, rec, value, ci95};
    return true;
}

/* "cache:l1", "random-walk": how a view names its record. */
static void record_key(const xc_seen *s, char *buf, size_t len)
{
    const char *level = param_string(s->rec, "level");
    snprintf(buf, len, "%s%s%s", s->view->at.probe, level ? ":" : "", level ? level : "");
}

/* The verdict of view s against the quoted view q under tolerance tol, and its reason. */
static const char *verdict(const xc_seen *s, const xc_seen *q, double tol, const char **reason)
{
    double gap = s->value - q->value, room = s->ci95 + q->ci95 + tol;
    bool either = s->view->relation == XC_OTHER || q->view->relation == XC_OTHER;
    int expected = either ? 0 : s->view->relation - q->view->relation;
    *reason = NULL;
    if (fabs(gap) <= room)
        return "agree";
    if (either || (expected > 0 && gap > 0) || (expected < 0 && gap < 0)) {
        *reason = s->view->reason ? s->view->reason : q->view->reason;
        return "apart";
    }
    *reason = expected == 0 ? "the same sequence by design: they should agree"
                            : "on the other side of the quoted figure than its sequence allows";
    return "unexplained";
}

static json_t *view_json(const xc_seen *s, const char *v, const char *reason)
{
    static const char *const rel[] = {"below", "same", "above", "other"};
    char key[96];
    record_key(s, key, sizeof key);
    json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:s, s:s, s:s}", "probe", key,
                          "figure", s->view->at.figure, "value", s->value, "ci95", s->ci95, "low",
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
    for (const xc_view *v = st->views; v->at.probe && n < 10; v++)
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
    snprintf(quoted, sizeof quoted, "%s %s", qkey, s[quote].view->at.figure);
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
