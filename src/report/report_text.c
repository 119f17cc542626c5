/* The text report (stdout): header, one-page summary, then each probe record's figures. */
#include "report/report.h"

#include <math.h>
#include <string.h>

#include "util/opts.h"

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? s : fallback;
}

static void format_number(double v, const char *unit, char *buf, size_t len)
{
    if (strcmp(unit, "B") == 0 && v >= 1024 && v < 18446744073709551616.0 && v == floor(v)) {
        gs_format_bytes((uint64_t)v, buf, len);
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f%s%s", v, *unit ? " " : "", unit);
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.1f%s%s", v, *unit ? " " : "", unit);
    else
        snprintf(buf, len, "%.3g%s%s", v, *unit ? " " : "", unit);
}

void gs_report_format_figure(const json_t *f, char *buf, size_t len)
{
    const json_t *v = json_object_get(f, "value");
    const char *unit = str_or(f, "unit", "");
    if (json_is_null(v) || !v) {
        snprintf(buf, len, "not determined: %s", str_or(f, "reason", "no reason given"));
    } else if (json_is_string(v)) {
        snprintf(buf, len, "%s", json_string_value(v));
    } else if (json_is_array(v) && json_array_size(v) == 0) {
        snprintf(buf, len, "none");
    } else if (json_is_array(v)) {
        size_t used = 0, i;
        json_t *e;
        buf[0] = '\0';
        json_array_foreach(v, i, e) {
            char one[32];
            format_number(json_number_value(e), "", one, sizeof one);
            int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "[", one);
            if (w < 0 || (size_t)w >= len - used)
                break;
            used += (size_t)w;
        }
        if (used + 2 < len)
            snprintf(buf + used, len - used, "]%s%s", *unit ? " " : "", unit);
    } else {
        char num[64];
        format_number(json_number_value(v), unit, num, sizeof num);
        double ci = json_number_value(json_object_get(f, "ci95"));
        json_int_t n = json_integer_value(json_object_get(f, "n"));
        if (ci > 0)
            snprintf(buf, len, "%s  ±%.3g (n=%lld)", num, ci, (long long)n);
        else
            snprintf(buf, len, "%s", num);
    }
}

void gs_report_probe(FILE *out, const json_t *p)
{
    const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
    fprintf(out, "\n== %s%s%s%s ==", str_or(p, "name", "?"), level ? " (" : "", level ? level : "",
            level ? ")" : "");
    fprintf(out, "  [%s", str_or(p, "status", "?"));
    double el = json_number_value(json_object_get(p, "elapsed_s"));
    if (el > 0)
        fprintf(out, ", %.1f s", el);
    double khz = json_number_value(json_object_get(p, "clock_khz_after"));
    if (khz > 0)
        fprintf(out, ", SM clock %.0f MHz", khz / 1000);
    fprintf(out, "]\n");
    const char *msg = json_string_value(json_object_get(p, "message"));
    if (msg)
        fprintf(out, "  %s\n", msg);
    const char *name;
    json_t *f;
    json_object_foreach(json_object_get(p, "figures"), name, f) {
        char buf[600];
        gs_report_format_figure(f, buf, sizeof buf);
        fprintf(out, "  %-28s %s\n", name, buf);
    }
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p, "warnings"), i, w)
        fprintf(out, "  warning: %s\n", json_string_value(w));
}

void gs_report_text(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    fprintf(out, "gpusonar %s  --  %s", str_or(json_object_get(doc, "tool"), "version", "?"),
            str_or(dev, "name", "no device"));
    if (json_is_true(json_object_get(dev, "simulated")))
        fprintf(out, "  [SIMULATED: model %s, not a real GPU]", str_or(dev, "model", "?"));
    else if (dev)
        fprintf(out, "  [cuda:%lld, compute capability %s, %lld SMs]",
                (long long)json_integer_value(json_object_get(dev, "ordinal")),
                str_or(dev, "compute_capability", "?"),
                (long long)json_integer_value(json_object_get(dev, "sm_count")));
    fprintf(out, "\n%s\n", str_or(doc, "time_utc", ""));
    if (!json_is_true(json_object_get(doc, "complete")))
        fprintf(out, "INCOMPLETE: %s\n", str_or(doc, "incomplete_reason", "the run did not finish"));
    gs_report_summary(out, doc);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        gs_report_probe(out, p);
}

/* Keeps *doc only if it says it is a gpusonar/1 result document; name is for the message. */
static int check_schema(json_t **doc, const char *name, gs_error *err)
{
    const char *schema = json_string_value(json_object_get(*doc, "schema"));
    if (!schema || strcmp(schema, "gpusonar/1") != 0) {
        json_decref(*doc);
        *doc = NULL;
        return gs_fail(err, GS_ERR_INPUT, "%s: not a gpusonar/1 result document (no \"schema\": "
                       "\"gpusonar/1\")", name);
    }
    return 0;
}

int gs_report_load(const char *path, json_t **doc, gs_error *err)
{
    json_error_t je;
    *doc = json_load_file(path, 0, &je);
    if (!*doc)
        return gs_fail(err, GS_ERR_INPUT, "%s:%d: %s", path, je.line, je.text);
    return check_schema(doc, path, err);
}

int gs_report_load_buffer(const char *text, size_t len, const char *name, json_t **doc,
                          gs_error *err)
{
    json_error_t je;
    *doc = json_loadb(text, len, 0, &je);
    if (!*doc)
        return gs_fail(err, GS_ERR_INPUT, "%s:%d: %s", name, je.line, je.text);
    return check_schema(doc, name, err);
}
