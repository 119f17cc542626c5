/* Inline SVG line plots for the HTML report (src/report/html.c): one series, drawn here in C with
 * axes, ticks and labels, so the page needs no script, font or image from anywhere. Every number
 * in the SVG is formatted here from a finite double; every string goes through gs_html_escape. */
#include "report/html.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/opts.h"

#define PLOT_W 720.0
#define PLOT_H 380.0
#define LEFT 84.0
#define RIGHT 18.0
#define TOP 34.0
#define BOTTOM 54.0
#define MAX_TICKS 40       /* a bound on every tick loop, whatever the data */
#define MAX_MARKERS 400    /* points drawn with a marker (and a hover title) */

/* One axis in drawing space: lo..hi of the transformed values (log2 of x on a log axis). */
typedef struct axis {
    double lo, hi;
    double step;           /* between ticks of a linear axis; 0 on a log axis or when none */
    bool log;
    bool bytes;            /* unit "B": tick labels as 16 KB, 2 MB */
} axis;

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

/* The range of the points: false when there is none. */
static bool data_range(const json_t *s, double *xlo, double *xhi, double *ylo, double *yhi)
{
    bool any = false;
    for (size_t i = 0; i < point_count(s); i++) {
        double x, y;
        if (!point_at(s, i, &x, &y))
            continue;
        if (!any || x < *xlo)
            *xlo = x;
        if (!any || x > *xhi)
            *xhi = x;
        if (!any || y < *ylo)
            *ylo = y;
        if (!any || y > *yhi)
            *yhi = y;
        any = true;
    }
    return any;
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

/* The step of an axis: in bytes, a nice number of KB, MB or GB (10 KB, not 9.77 KB). */
static double axis_step(const axis *a, double span)
{
    double unit = 1;
    while (a->bytes && span / unit >= 1024 && unit < 1e18)
        unit *= 1024;
    return nice_step(span / unit, 5) * unit;
}

/* A linear axis over lo..hi widened to whole steps (or by a little when lo == hi). */
static bool linear_axis(axis *a, double lo, double hi)
{
    if (hi == lo) {
        double pad = lo != 0 ? fabs(lo) * 0.05 : 1;
        lo -= pad;
        hi += pad;
    }
    if (!isfinite(hi - lo) || !(hi > lo))
        return false;
    double step = axis_step(a, hi - lo);
    double wlo = step > 0 ? floor(lo / step) * step : lo;
    double whi = step > 0 ? ceil(hi / step) * step : hi;
    a->lo = isfinite(wlo) && wlo <= lo ? wlo : lo;
    a->hi = isfinite(whi) && whi >= hi ? whi : hi;
    a->log = false;
    a->step = axis_step(a, a->hi - a->lo);
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

static double pixel_x(const axis *a, double v)
{
    double t = ((a->log ? log2(v) : v) - a->lo) / (a->hi - a->lo);
    return LEFT + t * (PLOT_W - LEFT - RIGHT);
}

static double pixel_y(const axis *a, double v)
{
    double t = (v - a->lo) / (a->hi - a->lo);
    return PLOT_H - BOTTOM - t * (PLOT_H - TOP - BOTTOM);
}

/* Enough significant digits that ticks one step apart read differently (1980000.005 next to
 * 1980000.01), and at least 6. */
static int tick_digits(const axis *a)
{
    double top = fmax(fabs(a->lo), fabs(a->hi));
    if (a->log || a->step <= 0 || top <= 0)
        return 6;
    double digits = floor(log10(top)) - floor(log10(a->step)) + 2;
    return digits < 6 ? 6 : digits > 15 ? 15 : (int)digits;
}

static void tick_label(const axis *a, double v, char *buf, size_t len)
{
    if (fabs(v) < 1e-9 * a->step)
        v = 0;   /* a whole number of steps that rounding left a hair off zero */
    if (a->bytes && v >= 1024 && v == floor(v) && v < 1.8e19)
        gs_format_bytes((uint64_t)v, buf, len);
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.*g", tick_digits(a), v);
}

static void x_tick(FILE *out, const axis *a, double v)
{
    char label[48];
    double px = pixel_x(a, v);
    tick_label(a, v, label, sizeof label);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            px, TOP, px, PLOT_H - BOTTOM, px, PLOT_H - BOTTOM + 16, label);
}

static void y_tick(FILE *out, const axis *a, double v)
{
    char label[48];
    double py = pixel_y(a, v);
    tick_label(a, v, label, sizeof label);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            LEFT, py, PLOT_W - RIGHT, py, LEFT - 6, py + 4, label);
}

/* Ticks of a linear axis at whole steps. */
static void linear_ticks(FILE *out, const axis *a, bool is_x)
{
    double step = a->step;
    if (step == 0) {
        is_x ? x_tick(out, a, a->lo) : y_tick(out, a, a->lo);
        is_x ? x_tick(out, a, a->hi) : y_tick(out, a, a->hi);
        return;
    }
    double first = ceil(a->lo / step);
    for (int i = 0; i < MAX_TICKS; i++) {
        double v = (first + i) * step;
        if (v > a->hi + step * 1e-9)
            break;
        is_x ? x_tick(out, a, v) : y_tick(out, a, v);
    }
}

/* Ticks of a log2 axis at powers of two, every k-th so that there are at most 10. */
static void log_ticks(FILE *out, const axis *a)
{
    double e0 = ceil(a->lo), e1 = floor(a->hi);
    double k = ceil((e1 - e0 + 1) / 10);
    if (k < 1)
        k = 1;
    for (int i = 0; i < MAX_TICKS; i++) {
        double e = e0 + i * k;
        if (e > e1)
            break;
        x_tick(out, a, exp2(e));
    }
}

/* "label [unit]", escaped. */
static void axis_title(FILE *out, const json_t *s, const char *label_key, const char *unit_key)
{
    const char *label = json_string_value(json_object_get(s, label_key));
    const char *unit = json_string_value(json_object_get(s, unit_key));
    gs_html_escape(out, label && *label ? label : "?");
    if (unit && *unit) {
        fputs(" [", out);
        gs_html_escape(out, unit);
        fputc(']', out);
    }
}

static void point_title(FILE *out, const json_t *s, double x, double y)
{
    fprintf(out, "<title>%.10g", x);
    const char *xu = json_string_value(json_object_get(s, "x_unit"));
    if (xu && *xu) {
        fputc(' ', out);
        gs_html_escape(out, xu);
    }
    fprintf(out, ", %.10g", y);
    const char *yu = json_string_value(json_object_get(s, "y_unit"));
    if (yu && *yu) {
        fputc(' ', out);
        gs_html_escape(out, yu);
    }
    fputs("</title>", out);
}

/* The line (broken where a point is missing) and, for short series, a marker per point. */
static void draw_points(FILE *out, const json_t *s, const axis *ax, const axis *ay)
{
    size_t n = point_count(s);
    bool pen_down = false;
    fputs("<path class=\"line\" d=\"", out);
    for (size_t i = 0; i < n; i++) {
        double x, y;
        if (!point_at(s, i, &x, &y) || (ax->log && x <= 0)) {
            pen_down = false;
            continue;
        }
        fprintf(out, "%s%.1f %.1f ", pen_down ? "L" : "M", pixel_x(ax, x), pixel_y(ay, y));
        pen_down = true;
    }
    fputs("\"/>\n", out);
    if (n > MAX_MARKERS)
        return;
    for (size_t i = 0; i < n; i++) {
        double x, y;
        if (!point_at(s, i, &x, &y) || (ax->log && x <= 0))
            continue;
        fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\">", pixel_x(ax, x),
                pixel_y(ay, y));
        point_title(out, s, x, y);
        fputs("</circle>\n", out);
    }
}

static void frame(FILE *out, const json_t *s, const char *title)
{
    fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"20\" text-anchor=\"middle\">",
            PLOT_W / 2);
    gs_html_escape(out, title);
    fprintf(out, "</text>\n<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            (LEFT + PLOT_W - RIGHT) / 2, PLOT_H - 10);
    axis_title(out, s, "x_label", "x_unit");
    fprintf(out, "</text>\n<text class=\"label\" transform=\"translate(16 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">", (TOP + PLOT_H - BOTTOM) / 2);
    axis_title(out, s, "y_label", "y_unit");
    fputs("</text>\n", out);
}

static bool is_bytes(const json_t *s, const char *unit_key)
{
    const char *u = json_string_value(json_object_get(s, unit_key));
    return u && strcmp(u, "B") == 0;
}

void gs_html_plot(FILE *out, const json_t *s, const char *title, const char *id)
{
    double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
    axis ax = { .bytes = is_bytes(s, "x_unit") }, ay = { .bytes = is_bytes(s, "y_unit") };
    bool have = data_range(s, &xlo, &xhi, &ylo, &yhi);
    bool drawable = have && linear_axis(&ay, ylo, yhi);
    if (drawable && xlo > 0 && xhi / xlo > 100)
        log_axis(&ax, xlo, xhi);
    else if (drawable)
        drawable = linear_axis(&ax, xlo, xhi);
    fprintf(out, "<svg class=\"plot\" id=\"%s\" data-xscale=\"%s\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"", id,
            ax.log ? "log2" : "linear", PLOT_W, PLOT_H, PLOT_W, PLOT_H);
    gs_html_escape(out, title);
    fputs("\">\n", out);
    frame(out, s, title);
    if (!drawable) {
        fprintf(out, "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                "</text>\n</svg>\n", PLOT_W / 2, PLOT_H / 2,
                have ? "values too far apart to plot" : "no data points");
        return;
    }
    if (ax.log)
        log_ticks(out, &ax);
    else
        linear_ticks(out, &ax, true);
    linear_ticks(out, &ay, false);
    fprintf(out, "<rect class=\"axes\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            LEFT, TOP, PLOT_W - LEFT - RIGHT, PLOT_H - TOP - BOTTOM);
    draw_points(out, s, &ax, &ay);
    fputs("</svg>\n", out);
}
