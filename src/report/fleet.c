/* Fleet analysis (fleet.h): result documents of many GPUs -> groups by GPU model -> per figure the
 * median, the spread and the outliers by robust z-score (median absolute deviation). Documents
 * whose schema or tool version differ from the majority are set aside and listed, never mixed;
 * unreadable ones are listed as invalid. Pure: the answer is a JSON tree for the printers. */
#include "report/fleet.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Iglewicz and Hoaglin's modified z-score: 0.6745 (x - median) / MAD, where 0.6745 is the 0.75
 * quantile of the standard normal, so the score is in sigmas for normal data. */
#define MAD_TO_Z 0.6745
/* 1.4826 MAD estimates sigma for normal data: the fleet's "spread". */
#define MAD_TO_SIGMA 1.4826
/* Where more than half the GPUs agree exactly the MAD is 0; the score then uses the mean absolute
 * deviation, 1.2533 MeanAD estimating sigma (sqrt(pi/2)), so a value shared by a large minority
 * (a bimodal figure) is not flagged while a lone one among five or more is. */
#define MEAN_AD_TO_SIGMA 1.253314
/* Gaps below this, in the figure's unit, are never differences (compare.c's floor). */
#define ABSOLUTE_FLOOR 1e-3

gs_fleet_options gs_fleet_default_options(void)
{
    return (gs_fleet_options){.z_threshold = 3.5, .min_relative = 0.05, .min_gpus = 3,
                              .judge_all = false};
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void gs_fleet_median_mad(double *values, size_t n, double *median, double *mad)
{
    qsort(values, n, sizeof *values, cmp_double);
    *median = median_sorted(values, n);
    for (size_t i = 0; i < n; i++)
        values[i] = fabs(values[i] - *median);
    qsort(values, n, sizeof *values, cmp_double);
    *mad = median_sorted(values, n);
}

double gs_fleet_robust_z(double x, double median, double mad, double mean_ad)
{
    if (x == median)
        return 0;
    if (mad > 0)
        return MAD_TO_Z * (x - median) / mad;
    if (mean_ad > 0)
        return (x - median) / (MEAN_AD_TO_SIGMA * mean_ad);
    return x > median ? INFINITY : -INFINITY;
}

/* Figures whose value depends on where a run's buffers land or that are residuals of a fit: one
 * run per GPU cannot tell a fault from luck there, so they are summarised but not judged (unless
 * --judge-all). */
static const struct {
    const char *pattern;
    const char *why;
} not_judged[] = {
    {"global-patterns.latency_l2_hit_*", "near or far L2 partition: differs from run to run"},
    {"*_rms_*", "residual of a fit"},
    {"*model_error*", "residual of a fit"},
    {"*residual*", "residual of a fit"},
};

const char *gs_fleet_not_judged(const char *figure)
{
    for (size_t i = 0; i < sizeof not_judged / sizeof *not_judged; i++)
        if (fnmatch(not_judged[i].pattern, figure, 0) == 0)
            return not_judged[i].why;
    return NULL;
}

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : fallback;
}

static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* ---- identity of a document ------------------------------------------------------------------ */
static const char *doc_host(const json_t *doc)
{
    return str_or(json_object_get(doc, "environment"), "host", "?");
}

static const char *doc_uuid(const json_t *doc)
{
    const char *u = str_or(json_object_get(doc, "environment"), "uuid", NULL);
    return u ? u : str_or(json_object_get(doc, "device"), "uuid", "");
}

static const char *doc_version(const json_t *doc)
{
    return str_or(json_object_get(doc, "tool"), "version", "?");
}

/* "schema tool-version": documents are mixed only when these agree. */
static void version_key(const json_t *doc, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", str_or(doc, "schema", "?"), doc_version(doc));
}

/* The key most documents share (the first such on a tie); documents without a device record do
 * not count. Counted in one pass through a table of keys, so a large fleet is read in linear
 * time. */
static void majority_key(const gs_fleet_input *in, size_t count, char *best, size_t len)
{
    json_t *seen = json_object();
    json_int_t best_n = 0;
    char k[256];
    best[0] = '\0';
    for (size_t i = 0; i < count && seen; i++) {
        if (!in[i].doc)
            continue;
        version_key(in[i].doc, k, sizeof k);
        json_t *n = json_object_get(seen, k);
        if (n)
            json_integer_set(n, json_integer_value(n) + 1);
        else
            json_object_set_new_nocheck(seen, k, json_integer(1));
    }
    for (size_t i = 0; i < count && seen; i++) {     /* in document order: the first on a tie */
        if (!in[i].doc)
            continue;
        version_key(in[i].doc, k, sizeof k);
        json_int_t n = json_integer_value(json_object_get(seen, k));
        if (n > best_n) {
            best_n = n;
            snprintf(best, len, "%s", k);
        }
    }
    json_decref(seen);
}

/* ---- grouping --------------------------------------------------------------------------------- */
/* The group of doc in groups (created on first sight), keyed by device name and compute
 * capability. */
static json_t *group_of(json_t *groups, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    const char *name = str_or(dev, "name", "?"), *cc = str_or(dev, "compute_capability", "?");
    size_t i;
    json_t *g;
    json_array_foreach(groups, i, g)
        if (strcmp(str_or(g, "device", ""), name) == 0 &&
            strcmp(str_or(g, "compute_capability", ""), cc) == 0)
            return g;
    g = json_pack("{s:s, s:s, s:b, s:[], s:{}}", "device", name, "compute_capability", cc,
                  "simulated", json_is_true(json_object_get(dev, "simulated")), "gpus",
                  "values");
    json_array_append_new(groups, g);
    return g;
}

/* "probe[:level]" of record p, with "#k" for its k-th repeat in one document: seen counts the
 * records of each name and level so far (so a document is keyed in one pass). */
static void record_key(const json_t *p, json_t *seen, char *buf, size_t len)
{
    const char *name = str_or(p, "name", "?");
    const char *level = str_or(json_object_get(p, "params"), "level", NULL);
    snprintf(buf, len, "%s%s%s", name, level ? ":" : "", level ? level : "");
    /* a separate table key: a name holding ':' must not meet a level of another name */
    char k[300];
    snprintf(k, sizeof k, "%zu %s", strlen(name), buf);
    json_t *n = json_object_get(seen, k);
    json_int_t nth = n ? json_integer_value(n) + 1 : 1;
    if (n)
        json_integer_set(n, nth);
    else
        json_object_set_new_nocheck(seen, k, json_integer(1));
    if (nth > 1) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "#%lld", (long long)nth);
    }
}

/* Add every numeric figure of doc to the group's values: key -> [[gpu, value, ci95, unit]...]. */
static void collect_figures(json_t *group, const json_t *doc, size_t gpu)
{
    json_t *values = json_object_get(group, "values"), *seen = json_object();
    const json_t *probes = json_object_get(doc, "probes");
    size_t i;
    json_t *p;
    json_array_foreach(probes, i, p) {
        char rec[256];
        record_key(p, seen, rec, sizeof rec);
        const char *fname;
        json_t *f;
        json_object_foreach(json_object_get(p, "figures"), fname, f) {
            const json_t *v = json_object_get(f, "value");
            if (!json_is_number(v))
                continue;
            char key[512];
            snprintf(key, sizeof key, "%s.%s", rec, fname);
            json_t *list = json_object_get(values, key);
            if (!list) {
                list = json_array();
                json_object_set_new(values, key, list);
            }
            double ci = json_number_value(json_object_get(f, "ci95"));
            json_array_append_new(list, json_pack("[I, f, f, s]", (json_int_t)gpu,
                                                  json_number_value(v), isfinite(ci) ? ci : 0.0,
                                                  str_or(f, "unit", "")));
        }
    }
    json_decref(seen);
}

/* ---- per-figure statistics ------------------------------------------------------------------- */
static double entry_value(const json_t *list, size_t i, int field)
{
    return json_number_value(json_array_get(json_array_get(list, i), field));
}

static json_t *outlier_record(const json_t *group, const json_t *gpu, const char *key,
                              const char *unit, double x, double median, double z)
{
    double rel = median != 0 ? (x - median) / fabs(median) : NAN;
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:s, s:f, s:o, s:o}", "device",
                          str_or(group, "device", "?"), "host", str_or(gpu, "host", "?"), "uuid",
                          str_or(gpu, "uuid", ""), "path", str_or(gpu, "path", ""), "figure", key,
                          "value", x, "unit", unit, "median", median, "robust_z",
                          number_or_null(z), "relative", number_or_null(rel));
    if (o && !isfinite(z))
        json_object_set_new(o, "note", json_string("every other GPU agrees exactly"));
    return o;
}

/* Whether value i of list is an outlier against the figure's statistics. */
static bool is_outlier(const json_t *list, size_t i, double median, double mad, double mean_ad,
                       double ci_median, const gs_fleet_options *opt, double *z)
{
    double x = entry_value(list, i, 1), gap = fabs(x - median);
    *z = gs_fleet_robust_z(x, median, mad, mean_ad);
    return fabs(*z) > opt->z_threshold && gap > opt->min_relative * fabs(median) &&
           gap > ABSOLUTE_FLOOR && gap > entry_value(list, i, 2) + ci_median;
}

/* One figure of a group: its statistics and outliers (appended to all_outliers as well). */
static json_t *figure_stats(const json_t *group, const char *key, const json_t *list,
                            const gs_fleet_options *opt, json_t *all_outliers)
{
    size_t n = json_array_size(list);
    double *v = malloc(n * sizeof *v), *ci = malloc(n * sizeof *ci);
    if (!v || !ci) {
        free(v);
        free(ci);
        return NULL;
    }
    double lo = INFINITY, hi = -INFINITY, median, mad, mean_ad = 0, ci_median, ignored;
    for (size_t i = 0; i < n; i++) {
        v[i] = entry_value(list, i, 1);
        ci[i] = entry_value(list, i, 2);
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    gs_fleet_median_mad(v, n, &median, &mad);
    gs_fleet_median_mad(ci, n, &ci_median, &ignored);
    for (size_t i = 0; i < n; i++)
        mean_ad += fabs(entry_value(list, i, 1) - median) / (double)n;
    free(v);
    free(ci);
    const char *unit = json_string_value(json_array_get(json_array_get(list, 0), 3));
    char few[96];
    snprintf(few, sizeof few, "%zu GPU%s of the model report%s it; %d are needed to judge it", n,
             n == 1 ? "" : "s", n == 1 ? "s" : "", opt->min_gpus);
    bool model_judged = !json_is_false(json_object_get(group, "judged"));
    const char *skip = !model_judged             ? "the model is not judged (the group says why)"
                       : (int)n < opt->min_gpus ? few
                       : opt->judge_all          ? NULL
                                                 : gs_fleet_not_judged(key);
    json_t *outliers = json_array();
    for (size_t i = 0; i < n && !skip; i++) {
        double z;
        if (!is_outlier(list, i, median, mad, mean_ad, ci_median, opt, &z))
            continue;
        size_t gpu = (size_t)json_integer_value(json_array_get(json_array_get(list, i), 0));
        json_t *o = outlier_record(group, json_array_get(json_object_get(group, "gpus"), gpu), key,
                                   unit, entry_value(list, i, 1), median, z);
        json_array_append(outliers, o);
        json_array_append_new(all_outliers, o);
    }
    json_t *s = json_pack("{s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:o}", "figure", key, "unit",
                          unit, "count", (json_int_t)n, "median", median, "spread",
                          MAD_TO_SIGMA * mad, "min", lo, "max", hi, "ci95", ci_median, "outliers",
                          outliers);
    if (s && skip && model_judged)      /* an unjudged model says why once, not per figure */
        json_object_set_new(s, "not_judged", json_string(skip));
    return s;
}

/* Whether the group has the GPUs to be judged; when not it is marked so ("judged": false and
 * the reason) and listed in not_judged. */
static void judge_or_not(json_t *group, const gs_fleet_options *opt, json_t *unjudged)
{
    size_t n = json_array_size(json_object_get(group, "gpus"));
    bool judged = (int)n >= opt->min_gpus;
    json_object_set_new(group, "judged", json_boolean(judged));
    if (judged)
        return;
    char why[160];
    snprintf(why, sizeof why, "%zu GPU%s of this model; at least %d are needed to tell an outlier "
             "from the rest", n, n == 1 ? "" : "s", opt->min_gpus);
    json_object_set_new(group, "not_judged", json_string(why));
    json_array_append_new(unjudged,
                          json_pack("{s:s, s:s, s:I, s:s}", "device", str_or(group, "device", "?"),
                                    "compute_capability", str_or(group, "compute_capability", "?"),
                                    "gpus", (json_int_t)n, "reason", why));
}

/* Replace a group's collected values by its figures' statistics, in figure-name order. */
static int finish_group(json_t *group, const gs_fleet_options *opt, json_t *all_outliers)
{
    json_t *values = json_object_get(group, "values");
    json_t *figures = json_array();
    const char *key;
    json_t *list;
    /* jansson iterates objects in insertion order: the first document's probe order. */
    json_object_foreach(values, key, list) {
        json_t *s = figure_stats(group, key, list, opt, all_outliers);
        if (!s) {
            json_decref(figures);
            return GS_ERR_NO_MEMORY;
        }
        json_array_append_new(figures, s);
    }
    json_object_set_new(group, "figures", figures);
    json_object_del(group, "values");
    return 0;
}

/* ---- the analysis ----------------------------------------------------------------------------- */
static void add_document(json_t *a, const gs_fleet_input *in, const char *majority)
{
    const json_t *doc = in->doc;
    if (!json_is_object(json_object_get(doc, "device"))) {
        json_array_append_new(json_object_get(a, "invalid"),
                              json_pack("{s:s, s:s}", "path", in->path, "reason",
                                        "no device record (a document of 'info' or of a run "
                                        "that never opened its device)"));
        return;
    }
    char key[256];
    version_key(doc, key, sizeof key);
    if (strcmp(key, majority) != 0) {
        char why[700];
        snprintf(why, sizeof why, "schema and version '%s' differ from the fleet's '%s': not "
                 "compared with it; run the same gpusonar on every node", key, majority);
        json_array_append_new(json_object_get(a, "set_aside"),
                              json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "path", in->path,
                                        "host", doc_host(doc), "uuid", doc_uuid(doc), "schema",
                                        str_or(doc, "schema", "?"), "version",
                                        doc_version(doc), "reason", why));
        return;
    }
    json_t *group = group_of(json_object_get(a, "groups"), doc);
    json_t *gpus = json_object_get(group, "gpus");
    size_t gpu = json_array_size(gpus);
    json_array_append_new(gpus, json_pack("{s:s, s:s, s:s, s:b}", "path", in->path, "host",
                                          doc_host(doc), "uuid", doc_uuid(doc), "complete",
                                          json_is_true(json_object_get(doc, "complete"))));
    collect_figures(group, doc, gpu);
}

int gs_fleet_analyse(const gs_fleet_input *inputs, size_t count, const gs_fleet_options *opt,
                     json_t **out, gs_error *err)
{
    char majority[256];
    majority_key(inputs, count, majority, sizeof majority);
    json_t *a = json_pack("{s:s, s:{s:f, s:f, s:i, s:b}, s:I, s:s, s:[], s:[], s:[], s:[], s:[]}",
                          "schema", GS_FLEET_SCHEMA, "options", "z_threshold", opt->z_threshold,
                          "min_relative", opt->min_relative, "min_gpus", opt->min_gpus,
                          "judge_all", opt->judge_all,
                          "documents", (json_int_t)count, "version", majority, "invalid",
                          "set_aside", "groups", "outliers", "not_judged");
    if (!a)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of memory analysing the fleet");
    for (size_t i = 0; i < count; i++) {
        if (inputs[i].doc)
            add_document(a, &inputs[i], majority);
        else
            json_array_append_new(json_object_get(a, "invalid"),
                                  json_pack("{s:s, s:s}", "path", inputs[i].path, "reason",
                                            inputs[i].why ? inputs[i].why : "unreadable"));
    }
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(a, "groups"), i, g) {
        judge_or_not(g, opt, json_object_get(a, "not_judged"));
        if (finish_group(g, opt, json_object_get(a, "outliers"))) {
            json_decref(a);
            return gs_fail(err, GS_ERR_NO_MEMORY, "out of memory analysing the fleet");
        }
    }
    *out = a;
    return 0;
}

size_t gs_fleet_outlier_count(const json_t *analysis)
{
    return json_array_size(json_object_get(analysis, "outliers"));
}

size_t gs_fleet_not_judged_count(const json_t *analysis)
{
    return json_array_size(json_object_get(analysis, "not_judged"));
}

bool gs_fleet_has_trouble(const json_t *analysis)
{
    return json_array_size(json_object_get(analysis, "invalid")) > 0 ||
           json_array_size(json_object_get(analysis, "set_aside")) > 0;
}
