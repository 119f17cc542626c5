/* The structural check of a gpusonar/1 document (docs/gpusonar-1.schema.json) made by every reader
 * (report --from, plot, compare, html) before any printer sees it: top-level keys and types, the
 * device, the environment record, each probe record's name, status, params, figures and series, each figure's value,
 * unit, ci95, n, method and reason, and series x/y lists of numbers or null of equal length (the
 * one rule the schema cannot state). Debian has no C JSON-schema library, so this is the schema
 * written out by hand; tests/report/test_validate.c keeps the two in agreement. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "result/validate.h"

#define PATH_LEN 512

static int bad(gs_error *err, const char *path, const char *what)
{
    return gs_fail(err, GS_ERR_INPUT, "%s: %s", path, what);
}

/* dst = "path.key", cut to PATH_LEN (a path only names where a problem is). */
static void sub(char *dst, const char *path, const char *key)
{
    if (snprintf(dst, PATH_LEN, "%s.%s", path, key) >= PATH_LEN)
        dst[PATH_LEN - 1] = '\0';
}

/* Whether obj has only keys from allowed; *extra gets the first other one. */
static bool only_keys(const json_t *obj, const char *const *allowed, const char **extra)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            *extra = key;
            return false;
        }
    }
    return true;
}

static int check_keys(const json_t *obj, const char *path, const char *const *allowed,
                      gs_error *err)
{
    const char *extra = NULL;
    char p[PATH_LEN];
    if (only_keys(obj, allowed, &extra))
        return 0;
    sub(p, path, extra);
    return bad(err, p, "unknown key");
}

static bool number_or_null(const json_t *v)
{
    return json_is_number(v) || json_is_null(v);
}

/* obj[key] exists (when required) and passes test; else "what" at path.key. */
static int check(const json_t *obj, const char *path, const char *key, bool required,
                 bool (*test)(const json_t *), const char *what, gs_error *err)
{
    const json_t *v = json_object_get(obj, key);
    char p[PATH_LEN];
    sub(p, path, key);
    if (!v)
        return required ? bad(err, p, "missing") : 0;
    return test(v) ? 0 : bad(err, p, what);
}

static bool is_string(const json_t *v) { return json_is_string(v); }
static bool is_object(const json_t *v) { return json_is_object(v); }
static bool is_bool(const json_t *v) { return json_is_boolean(v); }
static bool is_integer(const json_t *v) { return json_is_integer(v); }
static bool is_count(const json_t *v) { return json_is_integer(v) && json_integer_value(v) >= 0; }
static bool is_positive(const json_t *v) { return json_is_integer(v) && json_integer_value(v) >= 1; }
static bool is_one_interval(const json_t *v)
{
    return json_is_null(v) || (json_is_number(v) && json_number_value(v) >= 0);
}

/* A half-width, or one per element of a list figure (checked against the value's length by
 * check_figure). */
static bool is_interval(const json_t *v)
{
    size_t i;
    json_t *e;
    if (!json_is_array(v))
        return is_one_interval(v);
    json_array_foreach(v, i, e)
        if (!is_one_interval(e))
            return false;
    return true;
}

static bool is_string_list(const json_t *v)
{
    size_t i;
    json_t *e;
    if (!json_is_array(v))
        return false;
    json_array_foreach(v, i, e)
        if (!json_is_string(e))
            return false;
    return true;
}

static bool is_number_list(const json_t *v)
{
    size_t i;
    json_t *e;
    if (!json_is_array(v))
        return false;
    json_array_foreach(v, i, e)
        if (!number_or_null(e))
            return false;
    return true;
}

/* "2026-11-24T22:04:30Z" */
static bool is_time(const json_t *v)
{
    static const char pattern[] = "dddd-dd-ddTdd:dd:ddZ";
    const char *s = json_string_value(v);
    if (!s || strlen(s) != sizeof pattern - 1)
        return false;
    for (size_t i = 0; pattern[i]; i++)
        if (pattern[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pattern[i])
            return false;
    return true;
}

/* "9.0" */
static bool is_capability(const json_t *v)
{
    const char *s = json_string_value(v);
    size_t major = s ? strspn(s, "0123456789") : 0;
    return major > 0 && s[major] == '.' && strspn(s + major + 1, "0123456789") > 0 &&
           s[major + 1 + strspn(s + major + 1, "0123456789")] == '\0';
}

static bool is_backend(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && (strcmp(s, "cuda") == 0 || strcmp(s, "sim") == 0);
}

static bool is_status(const json_t *v)
{
    static const char *const names[] = {"running", "ok", "failed", "interrupted", "unsupported"};
    const char *s = json_string_value(v);
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0)
            return true;
    return false;
}

/* A figure's peak (probes/peak_check.h): {value > 0, fraction >= 0 or null, source}. */
static bool is_peak(const json_t *v)
{
    const json_t *value = json_object_get(v, "value"), *fraction = json_object_get(v, "fraction");
    return json_is_object(v) && json_object_size(v) == 3 && json_is_number(value) &&
           json_number_value(value) > 0 &&
           (json_is_null(fraction) || (json_is_number(fraction) && json_number_value(fraction) >= 0)) &&
           json_is_string(json_object_get(v, "source"));
}

static bool is_value(const json_t *v)
{
    return json_is_number(v) || json_is_string(v) || json_is_null(v) || is_number_list(v);
}

static int check_tool(const json_t *tool, gs_error *err)
{
    static const char *const keys[] = {"name", "version", "commit", NULL};
    const char *name = json_string_value(json_object_get(tool, "name"));
    int rc = check_keys(tool, "$.tool", keys, err);
    if (!rc && !json_object_get(tool, "name"))
        rc = bad(err, "$.tool.name", "missing");
    if (!rc && (!name || strcmp(name, "gpusonar") != 0))
        rc = bad(err, "$.tool.name", "must be \"gpusonar\"");
    if (!rc)
        rc = check(tool, "$.tool", "version", true, is_string, "must be a string", err);
    if (!rc)
        rc = check(tool, "$.tool", "commit", true, is_string, "must be a string", err);
    return rc;
}

static int check_device(const json_t *d, gs_error *err)
{
    const char *p = "$.device";
    if (json_is_null(d))
        return 0;
    if (!json_is_object(d))
        return bad(err, p, "must be an object or null");
    int rc = check(d, p, "name", true, is_string, "must be a string", err);
    if (!rc)
        rc = check(d, p, "backend", true, is_backend, "must be \"cuda\" or \"sim\"", err);
    if (!rc)
        rc = check(d, p, "simulated", true, is_bool, "must be true or false", err);
    if (!rc)
        rc = check(d, p, "compute_capability", true, is_capability, "must be \"MAJOR.MINOR\"",
                   err);
    if (!rc)
        rc = check(d, p, "sm_count", true, is_positive, "must be a whole number >= 1", err);
    if (!rc)
        rc = check(d, p, "model", false, is_string, "must be a string", err);
    if (!rc)
        rc = check(d, p, "ordinal", false, is_integer, "must be a whole number", err);
    if (!rc)
        rc = check(d, p, "sm_clock_khz", false, number_or_null, "must be a number or null", err);
    if (!rc)
        rc = check(d, p, "mem_clock_khz", false, number_or_null, "must be a number or null", err);
    return rc;
}

static bool is_int_or_null(const json_t *v) { return json_is_integer(v) || json_is_null(v); }

/* environment.start / .end: the card's state (all optional). */
static int check_reading(const json_t *r, const char *path, gs_error *err)
{
    static const char *const numbers[] = {"temperature_c", "power_w", "power_limit_w",
                                          "sm_clock_khz", "mem_clock_khz", NULL};
    if (!r)
        return 0;
    if (!json_is_object(r))
        return bad(err, path, "must be an object");
    int rc = 0;
    for (const char *const *k = numbers; *k && !rc; k++)
        rc = check(r, path, *k, false, number_or_null, "must be a number or null", err);
    if (!rc && !json_is_null(json_object_get(r, "throttle_reasons")))
        rc = check(r, path, "throttle_reasons", false, is_string_list,
                   "must be a list of strings or null", err);
    if (!rc && !json_is_null(json_object_get(r, "other_compute_processes")))
        rc = check(r, path, "other_compute_processes", false, is_count,
                   "must be a whole number >= 0 or null", err);
    return rc;
}

static int check_environment(const json_t *e, gs_error *err)
{
    static const char *const strings[] = {"host", "os", "nvml_reason", "driver_version",
                                          "pci_bus_id", "uuid", "counters_detail", NULL};
    static const char *const flags[] = {"nvml", "throttled", "shared", NULL};
    const char *p = "$.environment";
    if (!e)
        return 0;
    if (!json_is_object(e))
        return bad(err, p, "must be an object");
    int rc = 0;
    for (const char *const *k = strings; *k && !rc; k++)
        rc = check(e, p, *k, strcmp(*k, "host") == 0, is_string, "must be a string", err);
    for (const char *const *k = flags; *k && !rc; k++)
        rc = check(e, p, *k, true, is_bool, "must be true or false", err);
    if (!rc)
        rc = check(e, p, "counters", false, is_bool, "must be true or false", err);
    if (!rc)
        rc = check(e, p, "runtime_version", false, is_integer, "must be a whole number", err);
    if (!rc)
        rc = check(e, p, "cuda_driver_version", false, is_integer, "must be a whole number", err);
    if (!rc)
        rc = check(e, p, "mig_mode", false, is_int_or_null, "must be a whole number or null", err);
    if (!rc)
        rc = check(e, p, "compute_mode", false, is_int_or_null, "must be a whole number or null",
                   err);
    if (!rc)
        rc = check_reading(json_object_get(e, "start"), "$.environment.start", err);
    if (!rc)
        rc = check_reading(json_object_get(e, "end"), "$.environment.end", err);
    return rc;
}

static int check_figure(const json_t *f, const char *path, gs_error *err)
{
    static const char *const keys[] = {"value", "unit", "ci95", "n", "method", "reason", "peak",
                                       NULL};
    if (!json_is_object(f))
        return bad(err, path, "must be an object");
    int rc = check_keys(f, path, keys, err);
    if (!rc)
        rc = check(f, path, "value", true, is_value, "must be a number, a word, a list of "
                   "numbers or null", err);
    if (!rc)
        rc = check(f, path, "unit", true, is_string, "must be a string", err);
    if (!rc)
        rc = check(f, path, "ci95", true, is_interval, "must be a number >= 0, null, or a list "
                   "of those as long as the value's list", err);
    if (!rc && json_is_array(json_object_get(f, "ci95")) &&
        !(json_is_array(json_object_get(f, "value")) &&
          json_array_size(json_object_get(f, "ci95")) ==
              json_array_size(json_object_get(f, "value"))))
        rc = bad(err, path, "ci95 is a list, so the value must be a list of the same length");
    if (!rc)
        rc = check(f, path, "n", true, is_count, "must be a whole number >= 0", err);
    if (!rc)
        rc = check(f, path, "method", true, is_string, "must be a string", err);
    if (!rc)
        rc = check(f, path, "reason", json_is_null(json_object_get(f, "value")), is_string,
                   "must be a string (why the value is not determined)", err);
    if (!rc)
        rc = check(f, path, "peak", false, is_peak, "must be an object {value > 0, fraction "
                   ">= 0 or null, source}", err);
    return rc;
}

static int check_series(const json_t *s, const char *path, gs_error *err)
{
    static const char *const keys[] = {"x_label", "x_unit", "y_label", "y_unit", "x", "y", NULL};
    if (!json_is_object(s))
        return bad(err, path, "must be an object");
    int rc = check_keys(s, path, keys, err);
    for (int i = 0; i < 4 && !rc; i++)
        rc = check(s, path, keys[i], true, is_string, "must be a string", err);
    if (!rc)
        rc = check(s, path, "x", true, is_number_list, "must be a list of numbers or null", err);
    if (!rc)
        rc = check(s, path, "y", true, is_number_list, "must be a list of numbers or null", err);
    if (!rc && json_array_size(json_object_get(s, "x")) !=
                   json_array_size(json_object_get(s, "y"))) {
        char p[PATH_LEN];
        sub(p, path, "y");
        rc = bad(err, p, "must be as long as x");
    }
    return rc;
}

/* Each member of record[key] through fn, with its path. */
static int check_members(const json_t *record, const char *path, const char *key,
                         int (*fn)(const json_t *, const char *, gs_error *), gs_error *err)
{
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(record, key), name, v) {
        char p[PATH_LEN];
        if (snprintf(p, sizeof p, "%s.%s.%s", path, key, name) >= (int)sizeof p)
            p[sizeof p - 1] = '\0';
        int rc = fn(v, p, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* A record's report hints (result/hints.h): headline patterns, a table's columns, a printer. */
static int check_hints(const json_t *h, const char *path, gs_error *err)
{
    static const char *const keys[] = {"headline", "rows", "columns", "table", NULL};
    char p[PATH_LEN];
    if (!h)
        return 0;
    sub(p, path, "hints");
    if (!json_is_object(h))
        return bad(err, p, "must be an object");
    int rc = check_keys(h, p, keys, err);
    if (!rc)
        rc = check(h, p, "headline", false, is_string_list, "must be a list of strings", err);
    if (!rc)
        rc = check(h, p, "rows", false, is_string, "must be a string", err);
    if (!rc)
        rc = check(h, p, "table", false, is_string, "must be a string", err);
    const json_t *cols = json_object_get(h, "columns");
    if (!rc && cols && !json_is_array(cols))
        return bad(err, p, "columns: must be a list of {suffix, label}");
    size_t i;
    json_t *c;
    json_array_foreach(cols, i, c) {
        if (!json_is_object(c) || !json_is_string(json_object_get(c, "suffix")) ||
            !json_is_string(json_object_get(c, "label")) || json_object_size(c) != 2)
            return bad(err, p, "columns: each must be {suffix, label} strings");
    }
    return rc;
}

static int check_probe(const json_t *p, const char *path, gs_error *err)
{
    static const char *const keys[] = {"name", "params", "figures", "series", "status", "message",
                                       "warnings", "clock_khz_before", "clock_khz_after",
                                       "elapsed_s", "hints", NULL};
    if (!json_is_object(p))
        return bad(err, path, "must be an object");
    int rc = check_keys(p, path, keys, err);
    if (!rc)
        rc = check(p, path, "name", true, is_string, "must be a string", err);
    if (!rc)
        rc = check(p, path, "status", true, is_status, "must be running, ok, failed, "
                   "interrupted or unsupported", err);
    for (int i = 1; i <= 3 && !rc; i++)
        rc = check(p, path, keys[i], true, is_object, "must be an object", err);
    if (!rc)
        rc = check(p, path, "warnings", true, is_string_list, "must be a list of strings", err);
    if (!rc)
        rc = check(p, path, "message", false, is_string, "must be a string", err);
    for (int i = 7; i <= 9 && !rc; i++)
        rc = check(p, path, keys[i], false, number_or_null, "must be a number or null", err);
    if (!rc)
        rc = check_hints(json_object_get(p, "hints"), path, err);
    if (!rc)
        rc = check_members(p, path, "figures", check_figure, err);
    if (!rc)
        rc = check_members(p, path, "series", check_series, err);
    return rc;
}

/* The cross-check (result/crosscheck.h): each structure's name, unit, verdict, tolerance and
 * quoted figure, and each view's record, figure, interval, sequence, relation and verdict. */
static bool is_verdict(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && (!strcmp(s, "agree") || !strcmp(s, "apart") || !strcmp(s, "unexplained"));
}

static bool is_view_verdict(const json_t *v)
{
    const char *s = json_string_value(v);
    return is_verdict(v) || (s && !strcmp(s, "quote"));
}

static bool is_relation(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && (!strcmp(s, "same") || !strcmp(s, "above") || !strcmp(s, "below") ||
                 !strcmp(s, "other"));
}

static bool is_number(const json_t *v) { return json_is_number(v); }

static int check_crosscheck_view(const json_t *v, const char *path, gs_error *err)
{
    static const char *const keys[] = {"probe", "figure", "value", "ci95", "low", "high",
                                       "sequence", "relation", "verdict", "reason", NULL};
    static const char *const texts[] = {"probe", "figure", "sequence", NULL};
    static const char *const numbers[] = {"value", "ci95", "low", "high", NULL};
    if (!json_is_object(v))
        return bad(err, path, "must be an object");
    int rc = check_keys(v, path, keys, err);
    for (const char *const *k = texts; !rc && *k; k++)
        rc = check(v, path, *k, true, is_string, "must be a string", err);
    for (const char *const *k = numbers; !rc && *k; k++)
        rc = check(v, path, *k, true, is_number, "must be a number", err);
    if (!rc)
        rc = check(v, path, "relation", true, is_relation, "must be same, above, below or other", err);
    if (!rc)
        rc = check(v, path, "verdict", true, is_view_verdict, "must be quote, agree, apart or "
                   "unexplained", err);
    if (!rc)
        rc = check(v, path, "reason", false, is_string, "must be a string", err);
    return rc;
}

static int check_crosscheck(const json_t *list, gs_error *err)
{
    static const char *const keys[] = {"structure", "unit", "verdict", "tolerance",
                                       "tolerance_reason", "quote", "views", NULL};
    static const char *const texts[] = {"structure", "unit", "tolerance_reason", "quote", NULL};
    if (!list)
        return 0;
    if (!json_is_array(list))
        return bad(err, "$.crosscheck", "must be a list");
    size_t i, j;
    const json_t *e, *v;
    int rc = 0;
    json_array_foreach(list, i, e) {
        char path[PATH_LEN], vp[PATH_LEN];
        snprintf(path, sizeof path, "$.crosscheck[%zu]", i);
        if (!json_is_object(e))
            return bad(err, path, "must be an object");
        rc = check_keys(e, path, keys, err);
        for (const char *const *k = texts; !rc && *k; k++)
            rc = check(e, path, *k, true, is_string, "must be a string", err);
        if (!rc)
            rc = check(e, path, "verdict", true, is_verdict, "must be agree, apart or "
                       "unexplained", err);
        if (!rc)
            rc = check(e, path, "tolerance", true, is_number, "must be a number", err);
        if (!rc && !json_is_array(json_object_get(e, "views")))
            rc = bad(err, path, "views: must be a list");
        json_array_foreach(json_object_get(e, "views"), j, v) {
            if (rc)
                break;
            if (snprintf(vp, sizeof vp, "%s.views[%zu]", path, j) >= (int)sizeof vp)
                vp[sizeof vp - 1] = '\0';
            rc = check_crosscheck_view(v, vp, err);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int check_top(const json_t *doc, gs_error *err)
{
    static const char *const keys[] = {"schema", "tool", "command_line", "time_utc", "complete",
                                       "incomplete_reason", "device", "environment", "budget", "probes",
                                       "crosscheck", NULL};
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    if (!json_is_object(doc))
        return bad(err, "$", "must be an object");
    if (!schema || strcmp(schema, "gpusonar/1") != 0)
        return bad(err, "$.schema", "not a gpusonar/1 result document (no \"schema\": "
                   "\"gpusonar/1\")");
    int rc = check_keys(doc, "$", keys, err);
    if (!rc)
        rc = check(doc, "$", "tool", true, is_object, "must be an object", err);
    if (!rc)
        rc = check(doc, "$", "command_line", true, is_string_list, "must be a list of strings",
                   err);
    if (!rc)
        rc = check(doc, "$", "time_utc", true, is_time, "must be a UTC time "
                   "YYYY-MM-DDTHH:MM:SSZ", err);
    if (!rc)
        rc = check(doc, "$", "complete", true, is_bool, "must be true or false", err);
    if (!rc)
        rc = check(doc, "$", "incomplete_reason", false, is_string, "must be a string", err);
    if (!rc && !json_object_get(doc, "device"))
        rc = bad(err, "$.device", "missing");
    if (!rc && !json_is_array(json_object_get(doc, "probes")))
        rc = bad(err, "$.probes", json_object_get(doc, "probes") ? "must be a list" : "missing");
    return rc;
}

int gs_report_validate(const json_t *doc, gs_error *err)
{
    int rc = check_top(doc, err);
    if (!rc)
        rc = check_tool(json_object_get(doc, "tool"), err);
    if (!rc)
        rc = check_device(json_object_get(doc, "device"), err);
    if (!rc)
        rc = check_environment(json_object_get(doc, "environment"), err);
    if (!rc)
        rc = check_crosscheck(json_object_get(doc, "crosscheck"), err);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "$.probes[%zu]", i);
        if (!rc)
            rc = check_probe(p, path, err);
    }
    return rc;
}
