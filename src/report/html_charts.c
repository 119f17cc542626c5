/* The charts of the HTML report (src/report/html.c) that people look for, each with its levels
 * marked: latency against footprint (the random walk's staircase with the Eq. 6 fit overlaid),
 * bandwidth against footprint (the plateaus and the DRAM peak drawn), the occupancy roofline per
 * instruction type (peak and ridge marked, the pipeline model dashed) and the shared-memory bank
 * sweeps (intervals as error bars, the fit dashed); and every other series of a record, with its
 * fit and interval series drawn onto the series they belong to rather than as plots of their
 * own. Series are found by the names the probes give them; a chart whose series are not in the
 * document says so instead of being drawn. */
#define _GNU_SOURCE
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define MAX_LINES 24
#define MAX_MARKS 12


static const json_t *series_of(const json_t *rec, const char *name)
{
    const json_t *s = json_object_get(json_object_get(rec, "series"), name);
    return json_is_object(s) && json_array_size(json_object_get(s, "x")) > 0 ? s : NULL;
}

static bool figure_number(const json_t *rec, const char *key, double *v)
{
    const json_t *f = json_object_get(json_object_get(json_object_get(rec, "figures"), key),
                                      "value");
    if (!json_is_number(f) || !isfinite(json_number_value(f)))
        return false;
    *v = json_number_value(f);
    return true;
}

static const json_t *figure_list(const json_t *rec, const char *key)
{
    const json_t *f = json_object_get(json_object_get(json_object_get(rec, "figures"), key),
                                      "value");
    return json_is_array(f) ? f : NULL;
}

/* A mark, its label made here from a fixed text and a number in the unit given. */
static void add_mark(gs_html_mark *marks, int *n, double at, bool horizontal, const char *what,
                     const char *unit)
{
    if (*n >= MAX_MARKS || !isfinite(at))
        return;
    gs_html_mark *m = &marks[(*n)++];
    m->at = at;
    m->horizontal = horizontal;
    char v[48];
    if (gs_html_unit_is_bytes(unit))
        gs_html_format_bytes(at, v, sizeof v);
    else if (unit && strcmp(unit, "GB/s") == 0 && at >= 1000)
        snprintf(v, sizeof v, "%.2f TB/s", at / 1000);
    else
        snprintf(v, sizeof v, "%.4g%s%s", at, unit && *unit ? " " : "", unit ? unit : "");
    snprintf(m->label, sizeof m->label, "%s %s", what, v);
}

static void empty_chart(FILE *out, const char *id, const char *why)
{
    fprintf(out, "<p class=\"missing\" id=\"%s\">", id);
    gs_html_escape(out, why);
    fputs("</p>\n", out);
}

/* Latency against footprint: the global random walk with its Eq. 6 fit and the capacities it
 * found, or, without a walk, the cache records' average-mode sweeps with their sizes. */
void gs_html_staircase(FILE *out, const json_t *doc, const char *id, double w, double h)
{
    gs_html_line lines[MAX_LINES];
    gs_html_mark marks[MAX_MARKS];
    int nl = 0, nm = 0;
    const json_t *walk = gs_html_find_record(doc, "random-walk", NULL);
    const json_t *data = series_of(walk, "global_walk");
    json_t *fit = NULL;
    if (data) {
        lines[nl++] = (gs_html_line){.series = data, .legend = "global random walk",
                                     .kind = GS_HTML_DATA, .color = 0};
        fit = gs_report_eq6_curve(walk, data, "global");
        if (fit)
            lines[nl++] = (gs_html_line){.series = fit, .legend = "Eq. 6 fit",
                                         .kind = GS_HTML_FIT, .color = 1};
        const json_t *cap = figure_list(walk, "global_capacities_bytes");
        size_t k;
        const json_t *c;
        json_array_foreach(cap, k, c) {
            char what[32];
            snprintf(what, sizeof what, "level %zu:", k + 1);
            if (json_is_number(c))
                add_mark(marks, &nm, json_number_value(c), false, what, "B");
        }
    } else {
        static const char *const levels[] = {"l1", "tex", "l2", "const1"};
        for (int i = 0; i < 4; i++) {
            const json_t *rec = gs_html_find_record(doc, "cache", levels[i]);
            const json_t *s = series_of(rec, "average_sweep");
            double size;
            if (!s)
                continue;
            lines[nl] = (gs_html_line){.series = s, .legend = levels[i], .kind = GS_HTML_DATA,
                                       .color = nl};
            nl++;
            if (figure_number(rec, "size_bytes", &size))
                add_mark(marks, &nm, size, false, levels[i], "B");
        }
    }
    if (nl == 0) {
        empty_chart(out, id, "Latency against footprint: no random-walk or cache record in this "
                    "document (gpusonar run random-walk draws it).");
        return;
    }
    gs_html_chart c = {.title = "latency against footprint", .id = id, .lines = lines,
                       .nlines = nl, .marks = marks, .nmarks = nm, .width = w, .height = h};
    gs_html_chart_draw(out, &c);
    json_decref(fit);
}

/* Every space the random walk measured, on one chart, each with its Eq. 6 fit. */
static void walk_spaces(FILE *out, const json_t *doc)
{
    static const char *const spaces[] = {"global", "constant", "local", "shared"};
    const json_t *walk = gs_html_find_record(doc, "random-walk", NULL);
    gs_html_line lines[8];
    json_t *fits[4] = {0};
    int nl = 0;
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s_walk", spaces[i]);
        const json_t *s = series_of(walk, name);
        if (!s)
            continue;
        lines[nl++] = (gs_html_line){.series = s, .legend = spaces[i], .kind = GS_HTML_DATA,
                                     .color = i};
        fits[i] = gs_report_eq6_curve(walk, s, spaces[i]);
        if (fits[i])
            lines[nl++] = (gs_html_line){.series = fits[i], .kind = GS_HTML_FIT, .color = i};
    }
    if (nl > 0) {
        gs_html_chart c = {.title = "random walk per memory space, Eq. 6 fits dashed",
                           .id = "chart-walk-spaces", .lines = lines, .nlines = nl,
                           .width = 640, .height = 340};
        gs_html_chart_draw(out, &c);
    } else {
        empty_chart(out, "chart-walk-spaces", "Latency per memory space: no random-walk record "
                    "in this document (gpusonar run random-walk draws it).");
    }
    for (int i = 0; i < 4; i++)
        json_decref(fits[i]);
}

/* Bandwidth against footprint: the read, write and copy sweeps, the plateaus the probe found,
 * the DRAM peak, and the cache sizes measured. */
void gs_html_bandwidth(FILE *out, const json_t *doc, const char *id, double w, double h)
{
    static const char *const kinds[] = {"read", "write", "copy", "scale", "add", "triad"};
    const json_t *bw = gs_html_find_record(doc, "mem-bandwidth", NULL);
    gs_html_line lines[MAX_LINES];
    gs_html_mark marks[MAX_MARKS];
    int nl = 0, nm = 0;
    const char *name;
    json_t *s;
    json_object_foreach(json_object_get(bw, "series"), name, s)
        for (int k = 0; k < 6 && nl < MAX_LINES; k++)
            if (strncmp(name, kinds[k], strlen(kinds[k])) == 0 && name[strlen(kinds[k])] == '_'
                && json_array_size(json_object_get(s, "x")) > 0) {
                lines[nl] = (gs_html_line){.series = s, .legend = name, .kind = GS_HTML_DATA,
                                           .color = nl};
                nl++;
            }
    if (nl == 0) {
        empty_chart(out, id, "Bandwidth against footprint: no mem-bandwidth record in this "
                    "document (gpusonar run mem-bandwidth draws it).");
        return;
    }
    double v;
    if (figure_number(bw, "dram_peak_gbps", &v))
        add_mark(marks, &nm, v, true, "DRAM peak (bus x clock)", "GB/s");
    static const char *const plateaus[][2] = {{"l1_read_gbps", "L1 read"},
                                              {"l2_read_gbps", "L2 read"},
                                              {"dram_read_gbps", "DRAM read"}};
    for (int i = 0; i < 3; i++)
        if (figure_number(bw, plateaus[i][0], &v))
            add_mark(marks, &nm, v, true, plateaus[i][1], "GB/s");
    static const char *const sizes[][2] = {{"l1", "L1"}, {"l2", "L2"}};
    for (int i = 0; i < 2; i++)
        if (figure_number(gs_html_find_record(doc, "cache", sizes[i][0]), "size_bytes", &v))
            add_mark(marks, &nm, v, false, sizes[i][1], "B");
    gs_html_chart c = {.title = "bandwidth against footprint", .id = id, .lines = lines,
                       .nlines = nl, .marks = marks, .nmarks = nm, .width = w, .height = h};
    gs_html_chart_draw(out, &c);
}

/* The instruction types of the roofline record, from its "<type>_by_block_size" series. */
static int roofline_types(const json_t *rec, char types[][32], int max)
{
    int n = 0;
    const char *name;
    json_t *s;
    json_object_foreach(json_object_get(rec, "series"), name, s) {
        const char *suffix = strstr(name, "_by_block_size");
        size_t len = suffix ? (size_t)(suffix - name) : 0;
        if (!suffix || strcmp(suffix, "_by_block_size") != 0 || len == 0 || len >= 32 || n >= max)
            continue;
        memcpy(types[n], name, len);
        types[n][len] = '\0';
        n++;
    }
    return n;
}

/* The occupancy roofline of every instruction type on one chart: throughput against warps per
 * SM. */
void gs_html_roofline(FILE *out, const json_t *doc, const char *id, double w, double h)
{
    const json_t *rec = gs_html_find_record(doc, "roofline", NULL);
    char types[MAX_LINES][32];
    int nt = roofline_types(rec, types, MAX_LINES);
    gs_html_line lines[MAX_LINES];
    for (int i = 0; i < nt; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.31s_by_block_size", types[i]);
        lines[i] = (gs_html_line){.series = series_of(rec, name), .legend = types[i],
                                  .kind = GS_HTML_DATA, .color = i};
    }
    if (nt == 0) {
        empty_chart(out, id, "Occupancy roofline: no roofline record in this document "
                    "(gpusonar run roofline draws it).");
        return;
    }
    gs_html_chart c = {.title = "occupancy roofline per instruction type", .id = id,
                       .lines = lines, .nlines = nt, .width = w, .height = h};
    gs_html_chart_draw(out, &c);
}

/* One chart per instruction type: measured, the pipeline model dashed, peak and ridge marked. */
static void roofline_each(FILE *out, const json_t *doc)
{
    const json_t *rec = gs_html_find_record(doc, "roofline", NULL);
    char types[MAX_LINES][32];
    int nt = roofline_types(rec, types, MAX_LINES);
    for (int i = 0; i < nt; i++) {
        char name[80], model[80], id[48], title[96];
        gs_html_line lines[2];
        gs_html_mark marks[MAX_MARKS];
        int nl = 0, nm = 0;
        double v;
        snprintf(name, sizeof name, "%.31s_by_block_size", types[i]);
        snprintf(model, sizeof model, "%.31s_model", types[i]);
        lines[nl++] = (gs_html_line){.series = series_of(rec, name), .legend = "measured",
                                     .kind = GS_HTML_DATA, .color = 0};
        if (series_of(rec, model))
            lines[nl++] = (gs_html_line){.series = series_of(rec, model),
                                         .legend = "pipeline model", .kind = GS_HTML_FIT,
                                         .color = 1};
        snprintf(name, sizeof name, "%.31s_peak_ops_per_cycle_per_sm", types[i]);
        if (figure_number(rec, name, &v))
            add_mark(marks, &nm, v, true, "peak", "");
        snprintf(name, sizeof name, "%.31s_ilp1_ridge_warps", types[i]);
        if (figure_number(rec, name, &v))
            add_mark(marks, &nm, v, false, "ridge", "warps");
        snprintf(id, sizeof id, "chart-roofline-%d", i);
        snprintf(title, sizeof title, "%.31s: occupancy roofline", types[i]);
        gs_html_chart c = {.title = title, .id = id, .lines = lines, .nlines = nl, .marks = marks,
                           .nmarks = nm, .width = 440, .height = 270};
        fputs("<figure class=\"small\">", out);
        gs_html_chart_draw(out, &c);
        fputs("<figcaption>", out);
        gs_html_escape(out, title);
        fputs("</figcaption></figure>\n", out);
    }
}

/* Latency against stride per access width, intervals as error bars, the bank model's fit
 * dashed. */
static void banks(FILE *out, const json_t *doc)
{
    const json_t *rec = gs_html_find_record(doc, "smem-banks", NULL);
    gs_html_line lines[MAX_LINES];
    char legends[MAX_LINES][48];
    int nl = 0;
    const char *name;
    json_t *s;
    json_object_foreach(json_object_get(rec, "series"), name, s) {
        if (strncmp(name, "latency_w", 9) != 0 || strstr(name, "ci95") || nl + 2 > MAX_LINES)
            continue;
        char ci[64], fit[64];
        snprintf(ci, sizeof ci, "latency_ci95_%s", name + 8);
        snprintf(fit, sizeof fit, "fit_%s", name + 8);
        snprintf(legends[nl], sizeof legends[nl], "%.8s-byte accesses", name + 9);
        int color = nl / 2;
        lines[nl] = (gs_html_line){.series = s, .ci95 = series_of(rec, ci), .legend = legends[nl],
                                   .kind = GS_HTML_DATA, .color = color};
        nl++;
        if (series_of(rec, fit))
            lines[nl++] = (gs_html_line){.series = series_of(rec, fit), .kind = GS_HTML_FIT,
                                         .color = color};
    }
    if (nl == 0) {
        empty_chart(out, "chart-banks", "Shared-memory banks: no smem-banks record in this "
                    "document (gpusonar run smem-banks draws it).");
        return;
    }
    gs_html_mark marks[MAX_MARKS];
    int nm = 0;
    double v, banks_found, width;
    if (figure_number(rec, "latency_w4_stride1_cycles", &v))
        add_mark(marks, &nm, v, true, "conflict-free, 4-byte words:", "cycles");
    gs_html_chart c = {.title = "shared memory: latency against stride (bank conflicts)",
                       .id = "chart-banks", .lines = lines, .nlines = nl, .marks = marks,
                       .nmarks = nm, .width = 640, .height = 340};
    gs_html_chart_draw(out, &c);
    if (figure_number(rec, "banks", &banks_found) && figure_number(rec, "bank_width_bytes", &width)) {
        fprintf(out, "<p class=\"levels\">%.0f banks of %.0f B", banks_found, width);
        if (figure_number(rec, "conflict_cycles_per_way", &v))
            fprintf(out, ", %.3g cycles more per way of conflict", v);
        fputs(".</p>\n", out);
    }
}

static void figure_open(FILE *out, const char *cls)
{
    fprintf(out, "<figure class=\"%s\">\n", cls);
}

static void figure_close(FILE *out, const char *caption)
{
    fputs("<figcaption>", out);
    fputs(caption, out);   /* this file's own text */
    fputs("</figcaption></figure>\n", out);
}

void gs_html_key_plots(FILE *out, const json_t *doc)
{
    fputs("<section id=\"plots\">\n<h2>Plots</h2>\n<div class=\"grid key\">\n", out);
    figure_open(out, "wide");
    gs_html_bandwidth(out, doc, "chart-bandwidth", 640, 340);
    figure_close(out, "Bandwidth against footprint: the plateaus of each level and the DRAM "
                 "peak as lines, the measured cache sizes as verticals.");
    figure_open(out, "wide");
    walk_spaces(out, doc);
    figure_close(out, "Latency against footprint per memory space (random walk); the Eq. 6 fit "
                 "of each dashed.");
    figure_open(out, "wide");
    banks(out, doc);
    figure_close(out, "Shared-memory banks: latency against stride per word width, 95% "
                 "intervals as error bars, the bank model's fit dashed.");
    fputs("</div>\n<h3>Occupancy roofline per instruction type</h3>\n<div class=\"grid\">\n",
          out);
    roofline_each(out, doc);
    fputs("</div>\n</section>\n", out);
}

/* Whether name holds token as a whole "_"-separated word. */
static bool has_token(const char *name, const char *token, size_t *at)
{
    size_t n = strlen(token);
    for (const char *p = strstr(name, token); p; p = strstr(p + 1, token))
        if ((p == name || p[-1] == '_') && (p[n] == '\0' || p[n] == '_')) {
            *at = (size_t)(p - name);
            return true;
        }
    return false;
}

/* name without the token at `at` and one of its underscores. */
static void drop_token(const char *name, size_t at, size_t len, char *buf, size_t size)
{
    size_t end = at + len;
    if (name[end] == '_')
        end++;
    else if (at > 0)
        at--;
    snprintf(buf, size, "%.*s%s", (int)at, name, name + end);
}

static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && a[n] == b[n])
        n++;
    return n;
}

static bool overlay_kind(const char *name, bool *is_ci, size_t *at, size_t *len)
{
    static const char *const fits[] = {"fit", "model", "predicted"};
    if (has_token(name, "ci95", at)) {
        *is_ci = true;
        *len = 4;
        return true;
    }
    for (int i = 0; i < 3; i++)
        if (has_token(name, fits[i], at)) {
            *is_ci = false;
            *len = strlen(fits[i]);
            return true;
        }
    return false;
}

/* The series a fit or interval series belongs to: its name without the token, or with the
 * token replaced by its own y label (fit_w2 -> latency_w2), or else the series sharing the
 * longest name prefix with the same x and number of points. NULL when none. */
static const char *partner(const json_t *all, const char *name, const json_t *s)
{
    bool is_ci;
    size_t at, len;
    if (!overlay_kind(name, &is_ci, &at, &len))
        return NULL;
    char buf[256];
    drop_token(name, at, len, buf, sizeof buf);
    const char *key;
    json_t *o;
    json_object_foreach((json_t *)all, key, o)
        if (strcmp(key, buf) == 0 && strcmp(key, name) != 0)
            return key;
    const char *yl = json_string_value(json_object_get(s, "y_label"));
    if (yl) {
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)at, name, yl, name + at + len);
        json_object_foreach((json_t *)all, key, o)
            if (strcmp(key, buf) == 0 && strcmp(key, name) != 0)
                return key;
    }
    if (is_ci)
        return NULL;
    const char *best = NULL;
    size_t best_len = 0;
    size_t n = json_array_size(json_object_get(s, "x"));
    json_object_foreach((json_t *)all, key, o) {
        bool ci2;
        size_t a2, l2;
        if (strcmp(key, name) == 0 || overlay_kind(key, &ci2, &a2, &l2)
            || json_array_size(json_object_get(o, "x")) != n)
            continue;
        size_t p = common_prefix(key, name);
        if (p > best_len && p >= at && at > 0) {
            best = key;
            best_len = p;
        }
    }
    return best;
}

void gs_html_record_series(FILE *out, const json_t *rec, size_t index, const char *title)
{
    const json_t *all = json_object_get(rec, "series");
    size_t count = json_object_size(all);
    if (count == 0)
        return;
    fprintf(out, "<details class=\"series\"><summary>%zu series: plots</summary>\n"
            "<div class=\"grid\">\n", count);
    const char *name;
    json_t *s;
    size_t j = 0;
    json_object_foreach((json_t *)all, name, s) {
        size_t my = j++;
        if (partner(all, name, s))
            continue;                         /* drawn on the series it belongs to */
        gs_html_line lines[MAX_LINES];
        int nl = 0;
        lines[nl++] = (gs_html_line){.series = s, .legend = NULL, .kind = GS_HTML_DATA};
        const char *other;
        json_t *o;
        json_object_foreach((json_t *)all, other, o) {
            bool is_ci;
            size_t at, len;
            if (nl >= MAX_LINES || !overlay_kind(other, &is_ci, &at, &len))
                continue;
            const char *p = partner(all, other, o);
            if (!p || strcmp(p, name) != 0)
                continue;
            if (is_ci)
                lines[0].ci95 = o;
            else {
                /* the line's colour is its index: read before the count moves on */
                lines[nl] = (gs_html_line){.series = o, .legend = other, .kind = GS_HTML_FIT,
                                           .color = nl};
                nl++;
            }
        }
        if (nl > 1)
            lines[0].legend = name;
        char id[64], plot_title[512];
        snprintf(id, sizeof id, "plot-%zu-%zu", index, my);
        snprintf(plot_title, sizeof plot_title, "%s: %s", title, name);
        gs_html_chart c = {.title = plot_title, .id = id, .lines = lines, .nlines = nl,
                           .width = 560, .height = 320, .compact = true};
        fputs("<figure class=\"small\">", out);
        gs_html_chart_draw(out, &c);
        fputs("<figcaption>", out);
        gs_html_escape(out, name);
        if (lines[0].ci95)
            fputs(" (95% intervals as error bars)", out);
        fputs("</figcaption></figure>\n", out);
    }
    fputs("</div></details>\n", out);
}
