/* The text report (stdout): header, one-page summary, then each probe record's figures. */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/crosscheck_print.h"
#include "report/headline.h"
#include "report/wrap.h"
#include "util/input.h"
#include "util/opts.h"
#include "util/escape.h"
#include "util/units.h"

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? gs_esc(s) : fallback;   /* document text: the text rule of escape.h */
}

/* A list figure: each element with its unit, and its half-width when known ("[34, 256, 499]
 * cycles ± [0.99, 1.1, 9.3]"; sizes per element: "[207 KiB ± 55, 48.0 MiB ± 1.2]"). */
static void format_list(const json_t *v, const json_t *cis, const char *unit, bool with_ci,
                        char *buf, size_t len)
{
    bool bytes = strcmp(unit, "B") == 0;
    size_t used = 0, i;
    json_t *e;
    buf[0] = '\0';
    json_array_foreach(v, i, e) {
        char one[64];
        const json_t *c = with_ci && json_is_array(cis) ? json_array_get(cis, i) : NULL;
        double ci = json_is_number(c) ? json_number_value(c) : 0;
        if (bytes)
            gs_units_interval(json_number_value(e), ci, unit, one, sizeof one);
        else
            gs_units_number(json_number_value(e), one, sizeof one);
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "[", one);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
    snprintf(buf + used, len - used, "]%s%s", *unit && !bytes ? " " : "", bytes ? "" : unit);
    used = strlen(buf);
    if (!bytes && with_ci && json_is_array(cis) && json_array_size(cis) > 0 && used < len) {
        char list[256];
        gs_report_format_list_ci(cis, list, sizeof list);
        snprintf(buf + used, len - used, " ± %s", list);
    }
}

static void format_figure(const json_t *f, bool with_ci, bool full_reason, char *buf, size_t len)
{
    const json_t *v = json_object_get(f, "value");
    const char *unit = str_or(f, "unit", "");
    if (json_is_null(v) || !v) {
        char clause[600];
        const char *reason = str_or(f, "reason", "no reason given");
        bool cut = !full_reason && gs_wrap_first_clause(reason, clause, sizeof clause);
        snprintf(buf, len, "not determined: %s%s", cut ? clause : reason, cut ? " …" : "");
    } else if (json_is_string(v)) {
        snprintf(buf, len, "%s", gs_esc(json_string_value(v)));
    } else if (json_is_array(v) && json_array_size(v) == 0) {
        snprintf(buf, len, "none");
    } else if (json_is_array(v)) {
        format_list(v, json_object_get(f, "ci95"), unit, with_ci, buf, len);
    } else {
        double ci = json_number_value(json_object_get(f, "ci95"));
        gs_units_interval(json_number_value(v), with_ci ? ci : 0, unit, buf, len);
    }
}

void gs_report_format_value(const json_t *f, char *buf, size_t len)
{
    format_figure(f, false, true, buf, len);
}

void gs_report_format_list_ci(const json_t *cis, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *e;
    buf[0] = '\0';
    json_array_foreach(cis, i, e) {
        char one[32] = "-";
        if (json_is_number(e))
            gs_units_halfwidth(json_number_value(e), one, sizeof one);
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "[", one);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
    snprintf(buf + used, len - used, "]");
}

void gs_report_format_figure(const json_t *f, char *buf, size_t len)
{
    format_figure(f, true, true, buf, len);
    const json_t *ci = json_object_get(f, "ci95");
    size_t used = strlen(buf);
    bool some_ci = (json_is_number(ci) && json_number_value(ci) > 0) ||
                   (json_is_array(ci) && json_array_size(ci) > 0);
    if (!json_is_null(json_object_get(f, "value")) && some_ci && used < len)
        snprintf(buf + used, len - used, " (n=%lld)",
                 (long long)json_integer_value(json_object_get(f, "n")));
}

/* Pad s (UTF-8) with blanks to width characters. */
static void put_padded(FILE *out, const char *s, size_t width)
{
    size_t n = gs_wrap_chars(s);
    fputs(s, out);
    for (; n < width; n++)
        fputc(' ', out);
}

/* One figure line: its text name in a column of width name_w, then its value, wrapped. */
static void figure_line(FILE *out, const char *name, const json_t *f, size_t name_w, bool details,
                        int width, const char *same_as)
{
    char label[128], buf[1200];
    gs_headline_label(name, label, sizeof label);
    format_figure(f, true, details, buf, sizeof buf);
    if (same_as) {
        char other[128];
        gs_headline_label(same_as, other, sizeof other);
        snprintf(buf, sizeof buf, "not determined: as %s", gs_esc(other));
    }
    const json_t *ci = json_object_get(f, "ci95");
    bool some_ci = (json_is_number(ci) && json_number_value(ci) > 0) ||
                   (json_is_array(ci) && json_array_size(ci) > 0);
    size_t used = strlen(buf);
    if (details && !json_is_null(json_object_get(f, "value")) && some_ci && used < sizeof buf)
        snprintf(buf + used, sizeof buf - used, " (n=%lld)",
                 (long long)json_integer_value(json_object_get(f, "n")));
    fputs("  ", out);
    put_padded(out, gs_esc(label), name_w);
    fputc(' ', out);
    size_t col = 3 + (gs_wrap_chars(label) > name_w ? gs_wrap_chars(label) : name_w);
    gs_wrap_print(out, buf, (int)col, (int)(col < 40 ? col : 8), width);
}

/* A headline table: one row per row name (instruction type), one column per suffix. */
static void headline_table(FILE *out, const json_t *figures, const gs_headline *h)
{
    char rows[32][32];
    size_t nrows = 0;
    const char *name;
    json_t *f;
    json_object_foreach((json_t *)figures, name, f) {
        char row[32];
        int c;
        if (!gs_headline_cell(h, name, &c, row, sizeof row))
            continue;
        size_t r = 0;
        while (r < nrows && strcmp(rows[r], row) != 0)
            r++;
        if (r == nrows && nrows < 32)
            snprintf(rows[nrows++], sizeof rows[0], "%s", row);
    }
    if (nrows == 0)
        return;
    fputs("  ", out);
    put_padded(out, gs_esc(h->row_label), 11);
    for (int c = 0; h->columns[c].suffix; c++) {
        fputc(' ', out);
        put_padded(out, gs_esc(h->columns[c].label), h->columns[c + 1].suffix ? 
                   gs_wrap_chars(h->columns[c].label) + 1 : 0);
    }
    fputc('\n', out);
    for (size_t r = 0; r < nrows; r++) {
        fputs("  ", out);
        put_padded(out, gs_esc(rows[r]), 11);
        for (int c = 0; h->columns[c].suffix; c++) {
            char key[96], cell[64] = "-";
            snprintf(key, sizeof key, "%s_%s", rows[r], h->columns[c].suffix);
            const json_t *fig = json_object_get(figures, key);
            const json_t *v = json_object_get(fig, "value");
            if (json_is_number(v))
                gs_units_number(json_number_value(v), cell, sizeof cell);
            else if (fig)
                snprintf(cell, sizeof cell, "n/d");
            fputc(' ', out);
            put_padded(out, cell, h->columns[c + 1].suffix ?
                       gs_wrap_chars(h->columns[c].label) + 1 : 0);
        }
        fputc('\n', out);
    }
}

void gs_report_probe(FILE *out, const json_t *p, unsigned parts)
{
    bool details = parts & GS_REPORT_DETAILS;
    int width = gs_wrap_width(out);
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
    if (msg) {
        fputs("  ", out);
        gs_wrap_print(out, gs_esc(msg), 2, 2, width);
    }
    gs_headline store;
    const gs_headline *hints = gs_headline_of(p, &store);
    const char *table = hints ? hints->table : NULL;
    if (table && strcmp(table, "atomics") == 0)
        gs_report_atomics_table(out, p);
    if (table && strcmp(table, "tensor") == 0)
        gs_report_tensor_table(out, p);
    if (table && strcmp(table, "l2-persist") == 0)
        gs_report_persist_table(out, p);
    const gs_headline *h = details ? NULL : hints;
    const json_t *figures = json_object_get(p, "figures");
    if (h && h->columns)
        headline_table(out, figures, h);
    const char *name;
    json_t *f;
    size_t name_w = 0, hidden = 0;
    json_object_foreach((json_t *)figures, name, f) {
        char label[128];
        gs_headline_label(name, label, sizeof label);
        if (gs_headline_line(h, name) && gs_wrap_chars(label) > name_w)
            name_w = gs_wrap_chars(label);
    }
    name_w = name_w > 34 ? 34 : name_w < 20 ? 20 : name_w;
    /* In the headline, a reason the line above gave already is named, not repeated. */
    const char *last_nd = NULL, *last_reason = NULL;
    json_object_foreach((json_t *)figures, name, f) {
        char row[32];
        int c;
        const char *reason = json_is_null(json_object_get(f, "value"))
                                 ? json_string_value(json_object_get(f, "reason")) : NULL;
        bool same = !details && reason && last_reason && strcmp(reason, last_reason) == 0;
        if (gs_headline_line(h, name)) {
            figure_line(out, name, f, name_w, details, width, same ? last_nd : NULL);
            if (!same)
                last_nd = reason ? name : NULL, last_reason = reason;
        } else if (!gs_headline_cell(h, name, &c, row, sizeof row)) {
            hidden++;
        }
    }
    if (hidden)
        fprintf(out, "  (%zu more figure%s: --details, or the JSON document)\n", hidden,
                hidden == 1 ? "" : "s");
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p, "warnings"), i, w) {
        fputs("  warning: ", out);
        gs_wrap_print(out, gs_esc(json_string_value(w)), 11, 4, width);
    }
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
    if (json_object_get(env, "counters"))
        fprintf(out, "counters %s: %s\n", json_is_true(json_object_get(env, "counters"))
                                               ? "on" : "not available",
                str_or(env, "counters_detail", "?"));
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
    gs_report_text_parts(out, doc, GS_REPORT_SUMMARY);
}

void gs_report_text_part(FILE *out, const json_t *doc, bool summary)
{
    gs_report_text_parts(out, doc, summary ? GS_REPORT_SUMMARY : GS_REPORT_DETAILS);
}

void gs_report_text_parts(FILE *out, const json_t *doc, unsigned parts)
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
    if (parts & GS_REPORT_SUMMARY) {
        gs_report_summary(out, doc);
        gs_report_crosscheck_text(out, doc, GS_REPORT_SUMMARY);
    }
    if (parts & GS_REPORT_DETAILS)
        gs_report_itable(out, doc);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        gs_report_probe(out, p, parts);
    if (parts & GS_REPORT_DETAILS)
        gs_report_crosscheck_text(out, doc, GS_REPORT_DETAILS);
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
    char *text;
    size_t len;
    *doc = NULL;
    int rc = gs_input_read(path, "result document", &text, &len, err);
    if (rc)
        return rc;
    rc = gs_report_load_buffer(text, len, path, doc, err);
    free(text);
    return rc;
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
