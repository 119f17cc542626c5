/* Inline SVG charts for the HTML report (src/report/html.c): lines over shared axes, fits dashed,
 * intervals as error bars, levels marked, drawn here in C so the page needs no script, font or
 * image from anywhere. Axes read in units people use: binary sizes on a log2 axis with KiB/MiB/GiB
 * ticks, kHz as MHz, thousands of GB/s as TB/s; the y axis starts at zero unless a value is
 * negative, so noise is not drawn as a step. Every number in the SVG is formatted here from a
 * finite double; every string goes through gs_html_escape. */
#include "report/html.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define DEFAULT_W 720.0
#define DEFAULT_H 380.0
#define LEFT 70.0
#define RIGHT 16.0
#define TOP 30.0
#define BOTTOM 46.0
#define MAX_TICKS 40       /* a bound on every tick loop, whatever the data */
#define MAX_MARKERS 400    /* points drawn with a marker (and a hover title) */

static const char *const palette[] = {"#1f5fbf", "#d9480f", "#2b8a3e", "#862e9c", "#c92a2a",
                                      "#0b7285", "#e67700", "#5f3dc4", "#495057", "#a61e4d"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

/* One axis in drawing space: lo..hi of the transformed values (log2 of x on a log axis). */
typedef struct axis {
    double lo, hi;
    double step;           /* between ticks of a linear axis; 0 on a log axis or when none */
    bool log;
    bool bytes;            /* tick labels as 16 KiB, 2 MiB */
    double scale;          /* shown value = value * scale (kHz as MHz: 0.001) */
    const char *shown_unit;/* the unit after scaling, or NULL: the series' own */
    double p0, p1;         /* the pixel range: p0 at lo, p1 at hi */
} axis;

const json_t *gs_html_find_record(const json_t *doc, const char *name, const char *level)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *n = json_string_value(json_object_get(p, "name"));
        const char *l = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
        if (n && strcmp(n, name) == 0 && (!level || (l && strcmp(l, level) == 0)))
            return p;
    }
    return NULL;
}

void gs_html_format_bytes(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double v = bytes;
    while (fabs(v) >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (v == floor(v))
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.*f %s", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v, units[u]);
}

bool gs_html_unit_is_bytes(const char *unit)
{
    return unit && (strcmp(unit, "B") == 0 || strcmp(unit, "bytes") == 0);
}

static const char *unit_of(const json_t *s, const char *key)
{
    const char *u = json_string_value(json_object_get(s, key));
    return u ? u : "";
}

static bool point_at(const json_t *s, size_t i, double *x, double *y)
{
    const json_t *jx = json_array_get(json_object_get(s, "x"), i);
    const json_t *jy = json_array_get(json_object_get(s, "y"), i);
    if (!json_is_number(jx) || !json_is_number(jy))
        return false;
    *x = json_number_value(jx);
    *y = json_number_value(jy);
    return isfinite(*x) && isfinite(*y);
}

static size_t point_count(const json_t *s)
{
    size_t nx = json_array_size(json_object_get(s, "x"));
    size_t ny = json_array_size(json_object_get(s, "y"));
    return nx < ny ? nx : ny;
}

/* The half-width of point i's interval, 0 when none. */
static double half_width(const gs_html_line *l, size_t i)
{
    const json_t *v = json_array_get(json_object_get(l->ci95, "y"), i);
    double h = json_is_number(v) ? json_number_value(v) : 0;
    return isfinite(h) && h > 0 ? h : 0;
}

typedef struct range {
    bool any;
    double xlo, xhi, ylo, yhi;
} range;

static void extend(range *r, double x, double y)
{
    if (!r->any || x < r->xlo)
        r->xlo = x;
    if (!r->any || x > r->xhi)
        r->xhi = x;
    if (!r->any || y < r->ylo)
        r->ylo = y;
    if (!r->any || y > r->yhi)
        r->yhi = y;
    r->any = true;
}

/* The range of every line's points with their intervals; marks widen it only along their own
 * axis and only when they lie near the data (within a factor of 4), so a far level does not
 * squash the curve. */
static range data_range(const gs_html_chart *c)
{
    range r = {0};
    for (int k = 0; k < c->nlines; k++)
        for (size_t i = 0; i < point_count(c->lines[k].series); i++) {
            double x, y;
            if (!point_at(c->lines[k].series, i, &x, &y))
                continue;
            double h = half_width(&c->lines[k], i);
            extend(&r, x, y - h);
            extend(&r, x, y + h);
        }
    if (!r.any)
        return r;
    for (int m = 0; m < c->nmarks; m++) {
        double at = c->marks[m].at;
        if (!isfinite(at))
            continue;
        if (c->marks[m].horizontal && at >= 0 && at <= 4 * fmax(r.yhi, 0))
            r.yhi = fmax(r.yhi, at), r.ylo = fmin(r.ylo, at);
    }
    return r;
}

/* A step of 1, 2 or 5 times a power of ten giving about target ticks over span; 0 if none. */
static double nice_step(double span, int target)
{
    double raw = span / target;
    if (!(raw > 0) || !isfinite(raw))
        return 0;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    return step > 0 && isfinite(step) ? step : 0;
}

/* The step of an axis: in bytes, a nice number of KiB, MiB or GiB (16 KiB, not 15.6 KiB). */
static double axis_step(const axis *a, double span, int target)
{
    double unit = 1;
    while (a->bytes && span / unit >= 1024 && unit < 1e18)
        unit *= 1024;
    return nice_step(span / unit, target) * unit;
}

/* A linear axis over lo..hi widened to whole steps (or by a little when lo == hi). */
static bool linear_axis(axis *a, double lo, double hi, int target)
{
    if (hi == lo) {
        double pad = lo != 0 ? fabs(lo) * 0.05 : 1;
        lo = lo == 0 ? 0 : lo - pad;
        hi += pad;
    }
    if (!isfinite(hi - lo) || !(hi > lo))
        return false;
    double step = axis_step(a, hi - lo, target);
    double wlo = step > 0 ? floor(lo / step) * step : lo;
    double whi = step > 0 ? ceil(hi / step) * step : hi;
    a->lo = isfinite(wlo) && wlo <= lo ? wlo : lo;
    a->hi = isfinite(whi) && whi >= hi ? whi : hi;
    a->log = false;
    a->step = axis_step(a, a->hi - a->lo, target);
    return isfinite(a->hi - a->lo) && a->hi > a->lo;
}

/* A log2 axis from the smallest to the largest x. */
static void log_axis(axis *a, double lo, double hi)
{
    a->lo = log2(lo);
    a->hi = log2(hi);
    a->log = true;
    a->step = 0;
}

static double pixel(const axis *a, double v)
{
    double t = ((a->log ? log2(v) : v) - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

/* The unit an axis shows: kHz as MHz, GB/s past 1000 as TB/s, others as they are. */
static void choose_unit(axis *a, const char *unit, double top)
{
    a->scale = 1;
    a->shown_unit = NULL;
    if (strcmp(unit, "kHz") == 0) {
        a->scale = 1e-3;
        a->shown_unit = "MHz";
    } else if (strcmp(unit, "GB/s") == 0 && top >= 2000) {
        a->scale = 1e-3;
        a->shown_unit = "TB/s";
    }
}

/* A number with few digits: 4 significant, thousands kept whole (1980, 31.68k is not used). */
static void short_number(double v, char *buf, size_t len)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

static void tick_label(const axis *a, double v, char *buf, size_t len)
{
    if (a->step > 0 && fabs(v) < 1e-9 * a->step)
        v = 0;   /* a whole number of steps that rounding left a hair off zero */
    if (a->bytes)
        gs_html_format_bytes(v, buf, len);
    else if (a->step > 0 && a->step * a->scale < 1e-3 && v != 0)
        snprintf(buf, len, "%.10g", v * a->scale);   /* steps finer than short_number shows */
    else
        short_number(v * a->scale, buf, len);
}

static void x_tick(FILE *out, const axis *ax, const axis *ay, double v)
{
    char label[48];
    double px = pixel(ax, v);
    tick_label(ax, v, label, sizeof label);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            px, ay->p1, px, ay->p0, px, ay->p0 + 15, label);
}

static void y_tick(FILE *out, const axis *ax, const axis *ay, double v)
{
    char label[48];
    double py = pixel(ay, v);
    tick_label(ay, v, label, sizeof label);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            ax->p0, py, ax->p1, py, ax->p0 - 5, py + 4, label);
}

/* Ticks of a linear axis at whole steps. */
static void linear_ticks(FILE *out, const axis *ax, const axis *ay, bool is_x)
{
    const axis *a = is_x ? ax : ay;
    double step = a->step;
    if (step == 0) {
        is_x ? x_tick(out, ax, ay, a->lo) : y_tick(out, ax, ay, a->lo);
        is_x ? x_tick(out, ax, ay, a->hi) : y_tick(out, ax, ay, a->hi);
        return;
    }
    double first = ceil(a->lo / step);
    for (int i = 0; i < MAX_TICKS; i++) {
        double v = (first + i) * step;
        if (v > a->hi + step * 1e-9)
            break;
        is_x ? x_tick(out, ax, ay, v) : y_tick(out, ax, ay, v);
    }
}

/* Ticks of a log2 axis at powers of two, every k-th so that labels (about 60 units wide) do not
 * overlap; on a byte axis k is 2, 4 or a multiple of 10, from a multiple of k. */
static void log_ticks(FILE *out, const axis *ax, const axis *ay)
{
    double e0 = ceil(ax->lo), e1 = floor(ax->hi);
    double fit = floor(fabs(ax->p1 - ax->p0) / 62);
    double k = ceil((e1 - e0 + 1) / (fit > 1 ? fit : 1));
    if (k < 1)
        k = 1;
    if (k > 1 && ax->bytes) {
        k = k <= 2 ? 2 : k <= 4 ? 4 : 10 * ceil(k / 10);
        e0 = ceil(e0 / k) * k;   /* 4 KiB, 64 KiB, 1 MiB; 1 KiB, 1 MiB, 1 GiB */
    }
    for (int i = 0; i < MAX_TICKS; i++) {
        double e = e0 + i * k;
        if (e > e1)
            break;
        x_tick(out, ax, ay, exp2(e));
    }
}

/* "label [unit]", escaped, the unit as the axis shows it; a byte axis carries its units on its
 * ticks. */
static void axis_title(FILE *out, const json_t *s, const char *label_key, const axis *a,
                       const char *unit, double room)
{
    const char *label = json_string_value(json_object_get(s, label_key));
    gs_html_escape(out, label && *label ? label : "?");
    const char *shown = a->shown_unit ? a->shown_unit : unit;
    double chars = (double)(strlen(label ? label : "?") + strlen(shown ? shown : "") + 3);
    if (!a->bytes && shown && *shown && chars * 6.5 <= room) {   /* the unit where it fits */
        fputs(" [", out);
        gs_html_escape(out, shown);
        fputc(']', out);
    }
}

static void point_title(FILE *out, const json_t *s, double x, double y, double h)
{
    char buf[48];
    fputs("<title>", out);
    if (gs_html_unit_is_bytes(unit_of(s, "x_unit"))) {
        gs_html_format_bytes(x, buf, sizeof buf);
        fputs(buf, out);
    } else {
        fprintf(out, "%.10g ", x);
        gs_html_escape(out, unit_of(s, "x_unit"));
    }
    fprintf(out, ": %.6g", y);
    if (h > 0)
        fprintf(out, " &#177;%.3g", h);
    fputc(' ', out);
    gs_html_escape(out, unit_of(s, "y_unit"));
    fputs("</title>", out);
}

/* The line (broken where a point is missing), error bars, and for short data series a marker
 * per point. */
static void draw_line(FILE *out, const gs_html_line *l, const axis *ax, const axis *ay,
                      bool compact)
{
    size_t n = point_count(l->series);
    const char *color = palette[(unsigned)l->color % PALETTE_SIZE];
    int digits = compact ? 0 : 1;   /* whole units are enough on a chart drawn small */
    bool pen_down = false;
    fprintf(out, "<path class=\"%s\" stroke=\"%s\" d=\"",
            l->kind == GS_HTML_FIT ? "fit" : "line", color);
    for (size_t i = 0; i < n; i++) {
        double x, y;
        if (!point_at(l->series, i, &x, &y) || (ax->log && x <= 0)) {
            pen_down = false;
            continue;
        }
        fprintf(out, "%s%.*f %.*f ", pen_down ? "L" : "M", digits, pixel(ax, x), digits,
                pixel(ay, y));
        pen_down = true;
    }
    fputs("\"/>\n", out);
    if (l->kind == GS_HTML_FIT)
        return;
    for (size_t i = 0; l->ci95 && i < n; i++) {
        double x, y, h = half_width(l, i);
        if (h <= 0 || !point_at(l->series, i, &x, &y) || (ax->log && x <= 0))
            continue;
        double px = pixel(ax, x);
        fprintf(out, "<path class=\"errorbar\" stroke=\"%s\" d=\"M%.1f %.1f L%.1f %.1f "
                "M%.1f %.1f L%.1f %.1f M%.1f %.1f L%.1f %.1f\"/>\n", color,
                px, pixel(ay, y - h), px, pixel(ay, y + h), px - 3, pixel(ay, y - h), px + 3,
                pixel(ay, y - h), px - 3, pixel(ay, y + h), px + 3, pixel(ay, y + h));
    }
    if (n > MAX_MARKERS)
        return;
    fprintf(out, "<g fill=\"%s\">", color);
    for (size_t i = 0; i < n; i++) {
        double x, y;
        if (!point_at(l->series, i, &x, &y) || (ax->log && x <= 0))
            continue;
        fprintf(out, "<circle class=\"point\" cx=\"%.*f\" cy=\"%.*f\" r=\"2.3\"", digits,
                pixel(ax, x), digits, pixel(ay, y));
        if (compact) {
            fputs("/>", out);
            continue;
        }
        fputc('>', out);
        point_title(out, l->series, x, y, l->ci95 ? half_width(l, i) : 0);
        fputs("</circle>\n", out);
    }
    fputs("</g>\n", out);
}

/* The marks inside the axes: dashed lines with their labels, stacked so that neighbours do not
 * print over each other. */
static void draw_marks(FILE *out, const gs_html_chart *c, const axis *ax, const axis *ay)
{
    int vertical = 0;
    double last_py = -1000;
    for (int m = 0; m < c->nmarks; m++) {
        const gs_html_mark *mk = &c->marks[m];
        double at = mk->at;
        if (!isfinite(at))
            continue;
        if (mk->horizontal) {
            double py = pixel(ay, at);
            if (py < ay->p1 - 0.5 || py > ay->p0 + 0.5)
                continue;
            /* a label within a line's height of the previous one goes below its line */
            bool below = fabs(py - last_py) < 12;
            fprintf(out, "<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ax->p0, py, ax->p1, py,
                    ax->p1 - 4, below ? py + 11 : py - 3);
            last_py = below ? py + 14 : py;
        } else {
            if ((ax->log && at <= 0))
                continue;
            double px = pixel(ax, at);
            if (px < ax->p0 - 0.5 || px > ax->p1 + 0.5)
                continue;
            bool right = px > (ax->p0 + ax->p1) / 2 + (ax->p1 - ax->p0) / 4;
            fprintf(out, "<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", px, ay->p1, px, ay->p0,
                    right ? px - 3 : px + 3, ay->p1 + 12 + 13 * (vertical % 3),
                    right ? "end" : "start");
            vertical++;
        }
        gs_html_escape(out, mk->label);
        fputs("</text></g>\n", out);
    }
}

/* The legend: one swatch per line that has a legend text, in rows across the top. */
static void draw_legend(FILE *out, const gs_html_chart *c, const axis *ax)
{
    double x = ax->p0, y = 12;
    for (int k = 0; k < c->nlines; k++) {
        const gs_html_line *l = &c->lines[k];
        if (!l->legend)
            continue;
        double w = 26 + 6.6 * (double)strlen(l->legend);
        if (x + w > ax->p1 && x > ax->p0) {
            x = ax->p0;
            y += 14;
        }
        fprintf(out, "<g class=\"legend\"><line class=\"%s\" stroke=\"%s\" x1=\"%.1f\" y1=\"%.1f\" "
                "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\">",
                l->kind == GS_HTML_FIT ? "fit" : "line", palette[(unsigned)l->color % PALETTE_SIZE],
                x, y - 4, x + 18, y - 4, x + 22, y);
        gs_html_escape(out, l->legend);
        fputs("</text></g>\n", out);
        x += w;
    }
}

/* Rows of legend text above the axes: the top margin grows with them. */
static double legend_rows(const gs_html_chart *c, double width)
{
    double x = 0, rows = 0;
    for (int k = 0; k < c->nlines; k++) {
        if (!c->lines[k].legend)
            continue;
        double w = 26 + 6.6 * (double)strlen(c->lines[k].legend);
        if (rows == 0 || (x + w > width && x > 0)) {
            rows++;
            x = 0;
        }
        x += w;
    }
    return rows;
}

static void frame(FILE *out, const gs_html_chart *c, const axis *ax, const axis *ay, double h)
{
    const json_t *s = c->lines[0].series;
    fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            (ax->p0 + ax->p1) / 2, h - 8);
    axis_title(out, s, "x_label", ax, unit_of(s, "x_unit"), ax->p1 - ax->p0);
    fprintf(out, "</text>\n<text class=\"label\" transform=\"translate(14 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">", (ay->p0 + ay->p1) / 2);
    axis_title(out, s, "y_label", ay, unit_of(s, "y_unit"), h);
    fputs("</text>\n", out);
}

/* Fix both axes from the data; false when nothing can be drawn. */
static bool make_axes(const gs_html_chart *c, range r, axis *ax, axis *ay, double w, double h,
                      double top)
{
    const json_t *s = c->lines[0].series;
    ax->bytes = gs_html_unit_is_bytes(unit_of(s, "x_unit"));
    ay->bytes = gs_html_unit_is_bytes(unit_of(s, "y_unit"));
    choose_unit(ay, unit_of(s, "y_unit"), fmax(fabs(r.ylo), fabs(r.yhi)));
    choose_unit(ax, unit_of(s, "x_unit"), fmax(fabs(r.xlo), fabs(r.xhi)));
    ax->p0 = LEFT;
    ax->p1 = w - RIGHT;
    ay->p0 = h - BOTTOM;
    ay->p1 = top;
    double ylo = r.ylo >= 0 ? 0 : r.ylo;        /* from zero unless a value is negative */
    if (!linear_axis(ay, ylo, r.yhi, h < 300 ? 4 : 5))
        return false;
    if (r.xlo > 0 && r.xhi / r.xlo > 100) {
        log_axis(ax, r.xlo, r.xhi);
        return true;
    }
    return linear_axis(ax, r.xlo, r.xhi, w < 500 ? 4 : 6);
}

void gs_html_chart_draw(FILE *out, const gs_html_chart *c)
{
    double w = c->width > 0 ? c->width : DEFAULT_W, h = c->height > 0 ? c->height : DEFAULT_H;
    double top = TOP + 14 * (legend_rows(c, w - LEFT - RIGHT) > 0
                             ? legend_rows(c, w - LEFT - RIGHT) - 1 : 0);
    range r = c->nlines > 0 ? data_range(c) : (range){0};
    axis ax = {0}, ay = {0};
    bool drawable = r.any && make_axes(c, r, &ax, &ay, w, h, top);
    fprintf(out, "<svg class=\"plot\" id=\"%s\" data-xscale=\"%s\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"", c->id,
            ax.log ? "log2" : "linear", w, h, w, h);
    gs_html_escape(out, c->title);
    fputs("\">\n<title>", out);
    gs_html_escape(out, c->title);
    fputs("</title>\n", out);
    if (!drawable) {
        fprintf(out, "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                "</text>\n</svg>\n", w / 2, h / 2,
                r.any ? "values too far apart to plot" : "no data points");
        return;
    }
    frame(out, c, &ax, &ay, h);
    if (ax.log)
        log_ticks(out, &ax, &ay);
    else
        linear_ticks(out, &ax, &ay, true);
    linear_ticks(out, &ax, &ay, false);
    fprintf(out, "<rect class=\"axes\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            ax.p0, ay.p1, ax.p1 - ax.p0, ay.p0 - ay.p1);
    draw_marks(out, c, &ax, &ay);
    for (int k = 0; k < c->nlines; k++)
        draw_line(out, &c->lines[k], &ax, &ay, c->compact);
    draw_legend(out, c, &ax);
    fputs("</svg>\n", out);
}

void gs_html_plot(FILE *out, const json_t *s, const char *title, const char *id)
{
    gs_html_line line = {.series = s, .kind = GS_HTML_DATA};
    gs_html_chart chart = {.title = title, .id = id, .lines = &line, .nlines = 1};
    gs_html_chart_draw(out, &chart);
}
