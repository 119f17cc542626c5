/* The text report (stdout): header, one-page summary, then each probe record's figures. */
#include "report/report.h"

#include <math.h>
#include <string.h>

#include "util/opts.h"
#include "util/escape.h"

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? gs_esc(s) : fallback;   /* document text: the text rule of escape.h */
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

void gs_report_format_value(const json_t *f, char *buf, size_t len)
{
    const json_t *v = json_object_get(f, "value");
    const char *unit = str_or(f, "unit", "");
    if (json_is_null(v) || !v) {
        snprintf(buf, len, "not determined: %s", str_or(f, "reason", "no reason given"));
    } else if (json_is_string(v)) {
        snprintf(buf, len, "%s", gs_esc(json_string_value(v)));
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
        format_number(json_number_value(v), unit, buf, len);
    }
}

void gs_report_format_list_ci(const json_t *cis, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *e;
    buf[0] = '\0';
    json_array_foreach(cis, i, e) {
        char one[32] = "-";
        if (json_is_number(e))
            snprintf(one, sizeof one, "%.3g", json_number_value(e));
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "[", one);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
    snprintf(buf + used, len - used, "]");
}

void gs_report_format_figure(const json_t *f, char *buf, size_t len)
{
    gs_report_format_value(f, buf, len);
    double ci = json_number_value(json_object_get(f, "ci95"));
    json_int_t n = json_integer_value(json_object_get(f, "n"));
    size_t used = strlen(buf);
    const json_t *cis = json_object_get(f, "ci95");
    if (json_is_number(json_object_get(f, "value")) && ci > 0 && used < len)
        snprintf(buf + used, len - used, "  ±%.3g (n=%lld)", ci, (long long)n);
    else if (json_is_array(cis) && json_array_size(cis) > 0 && used < len) {
        char list[256];
        gs_report_format_list_ci(cis, list, sizeof list);
        snprintf(buf + used, len - used, "  ±%s (n=%lld)", list, (long long)n);
    }
}

void gs_report_probe(FILE *out, const json_t *p)
{
    const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
    fprintf(out, "\n== %s%s%s%s ==", str_or(p, "name", "?"), level ? " (" : "", gs_esc(level),
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
        fprintf(out, "  %s\n", gs_esc(msg));
    if (strcmp(str_or(p, "name", ""), "atomics") == 0)
        gs_report_atomics_table(out, p);
    if (strcmp(str_or(p, "name", ""), "tensor") == 0)
        gs_report_tensor_table(out, p);
    if (strcmp(str_or(p, "name", ""), "l2-persist") == 0)
        gs_report_persist_table(out, p);
    const char *name;
    json_t *f;
    json_object_foreach(json_object_get(p, "figures"), name, f) {
        char buf[600];
        gs_report_format_figure(f, buf, sizeof buf);
        fprintf(out, "  %-28s %s\n", gs_esc(name), buf);
    }
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p, "warnings"), i, w)
        fprintf(out, "  warning: %s\n", gs_esc(json_string_value(w)));
}

/* One line of a state reading: "61 C, 85.3 W of 700 W, SM 1980 MHz, memory 2619 MHz, ...". */
static void print_reading(FILE *out, const char *when, const json_t *r)
{
    if (!r)
        return;
    fprintf(out, "%-8s", when);
    const char *sep = " ";
    double v;
    if ((v = json_number_value(json_object_get(r, "temperature_c"))) > 0)
        fprintf(out, "%s%.0f C", sep, v), sep = ", ";
    if ((v = json_number_value(json_object_get(r, "power_w"))) > 0) {
        fprintf(out, "%s%.1f W", sep, v), sep = ", ";
        if ((v = json_number_value(json_object_get(r, "power_limit_w"))) > 0)
            fprintf(out, " of %.0f W", v);
    }
    if ((v = json_number_value(json_object_get(r, "sm_clock_khz"))) > 0)
        fprintf(out, "%sSM %.0f MHz", sep, v / 1000), sep = ", ";
    if ((v = json_number_value(json_object_get(r, "mem_clock_khz"))) > 0)
        fprintf(out, "%smemory %.0f MHz", sep, v / 1000), sep = ", ";
    const json_t *reasons = json_object_get(r, "throttle_reasons");
    size_t i;
    json_t *e;
    if (json_array_size(reasons)) {
        fprintf(out, "%sclock reasons:", sep);
        json_array_foreach(reasons, i, e)
            fprintf(out, " %s", gs_esc(json_string_value(e)));
        sep = ", ";
    }
    json_int_t others = json_integer_value(json_object_get(r, "other_compute_processes"));
    if (json_is_integer(json_object_get(r, "other_compute_processes")))
        fprintf(out, "%s%lld other compute process%s", sep, (long long)others,
                others == 1 ? "" : "es");
    fputc('\n', out);
}

/* The environment record: host, driver, identity, and the card's state at start and end. */
static void print_environment(FILE *out, const json_t *env)
{
    if (!env)
        return;
    fprintf(out, "host     %s (%s)\n", str_or(env, "host", "?"), str_or(env, "os", "?"));
    if (!json_is_true(json_object_get(env, "nvml"))) {
        fprintf(out, "state    not recorded: %s\n", str_or(env, "nvml_reason", "no NVML"));
        return;
    }
    long long cuda = json_integer_value(json_object_get(env, "cuda_driver_version"));
    long long rt = json_integer_value(json_object_get(env, "runtime_version"));
    fprintf(out, "driver   %s (CUDA %lld.%lld), runtime %lld.%lld; %s at %s; MIG %s\n",
            str_or(env, "driver_version", "?"), cuda / 1000, cuda % 1000 / 10, rt / 1000,
            rt % 1000 / 10, str_or(env, "uuid", "?"), str_or(env, "pci_bus_id", "?"),
            json_integer_value(json_object_get(env, "mig_mode")) == 1 ? "enabled" : "disabled");
    print_reading(out, "start", json_object_get(env, "start"));
    print_reading(out, "end", json_object_get(env, "end"));
    if (json_is_true(json_object_get(env, "throttled")))
        fprintf(out, "WARNING: the GPU throttled during the run; figures in ns and bandwidths may be low\n");
    if (json_is_true(json_object_get(env, "shared")))
        fprintf(out, "WARNING: another compute process used the GPU during the run\n");
}

void gs_report_text(FILE *out, const json_t *doc)
{
    gs_report_text_part(out, doc, true);
}

void gs_report_text_part(FILE *out, const json_t *doc, bool summary)
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
    print_environment(out, json_object_get(doc, "environment"));
    if (!json_is_true(json_object_get(doc, "complete")))
        fprintf(out, "INCOMPLETE: %s\n", str_or(doc, "incomplete_reason", "the run did not finish"));
    if (summary)
        gs_report_summary(out, doc);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        gs_report_probe(out, p);
}

/* Keeps *doc only if it says it is a gpusonar/1 result document; name is for the message. */
/* Every reader's gate: the document must be a valid gpusonar/1 result (gs_report_validate). */
static int check_document(json_t **doc, const char *name, gs_error *err)
{
    gs_error why;
    if (gs_report_validate(*doc, &why)) {
        json_decref(*doc);
        *doc = NULL;
        return gs_fail(err, GS_ERR_INPUT, "%s: not a valid gpusonar/1 result document: %s", name,
                       why.msg);
    }
    return 0;
}

int gs_report_load(const char *path, json_t **doc, gs_error *err)
{
    json_error_t je;
    *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!*doc)
        return gs_fail(err, GS_ERR_INPUT, "%s:%d: %s", path, je.line, je.text);
    return check_document(doc, path, err);
}

int gs_report_load_buffer(const char *text, size_t len, const char *name, json_t **doc,
                          gs_error *err)
{
    json_error_t je;
    *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!*doc)
        return gs_fail(err, GS_ERR_INPUT, "%s:%d: %s", name, je.line, je.text);
    return check_document(doc, name, err);
}
