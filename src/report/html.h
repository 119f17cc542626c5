/* Pieces of the HTML report (src/report/html.c) shared with its charts (src/report/html_plot.c),
 * its hierarchy diagram (src/report/html_diagram.c) and its tests: the escaper every string from
 * a document goes through, readable units, and inline SVG charts. */
#ifndef GS_REPORT_HTML_H
#define GS_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "util/escape.h"

/* Write s (NULL writes nothing) HTML-escaped for text and for quoted attribute values: & < > "
 * and ' become entities, control characters other than tab, newline and carriage return become
 * U+FFFD (the HTML rule of util/escape.h, which every file of the page calls through here). */
static inline void gs_html_escape(FILE *out, const char *s)
{
    gs_escape_html(out, s);
}

/* One series ({x_label, x_unit, y_label, y_unit, x, y}) as an inline <svg class="plot"> line plot
 * with axes, ticks, labels and the title given; element id is id (made by the caller, not from the
 * document). Points whose x or y is not a number are skipped; x is drawn on a log2 axis when it
 * is positive and spans more than two decades (as src/report/plot.c does for gnuplot). */
void gs_html_plot(FILE *out, const json_t *series, const char *title, const char *id);

/* A size in bytes with binary units: "512 B", "16 KiB", "45.8 MiB", "79.6 GiB". */
void gs_html_format_bytes(double bytes, char *buf, size_t len);

/* True for the units that mean bytes ("B", "bytes"). */
bool gs_html_unit_is_bytes(const char *unit);

/* How a line of a chart is drawn. */
typedef enum gs_html_line_kind {
    GS_HTML_DATA,           /* measured points: a line with a marker per point */
    GS_HTML_FIT,            /* a model or fit: a dashed line, no markers */
} gs_html_line_kind;

/* One line of a chart: a series, optionally with a series of ci95 half-widths at the same
 * points drawn as error bars. */
typedef struct gs_html_line {
    const json_t *series;   /* {x, y, and for the first line x_label, x_unit, y_label, y_unit} */
    const json_t *ci95;     /* {y: half-widths, index for index with series' points} or NULL */
    const char *legend;     /* text (escaped here); NULL: not in the legend */
    gs_html_line_kind kind;
    int color;              /* index into the palette; a fit takes its data line's color */
} gs_html_line;

/* A level marked on a chart: a vertical line at x = at, or a horizontal one at y = at, in the
 * series' own unit, with a label (escaped here). */
typedef struct gs_html_mark {
    double at;
    bool horizontal;
    char label[96];
} gs_html_mark;

/* A chart: lines over shared axes (taken from the first line's labels and units), marks, a
 * legend. The y axis starts at zero when no value is negative. */
typedef struct gs_html_chart {
    const char *title;      /* escaped here */
    const char *id;         /* element id, made by the caller (not from the document) */
    const gs_html_line *lines;
    int nlines;
    const gs_html_mark *marks;
    int nmarks;
    double width, height;   /* the drawing's size in SVG units; 0: 720 x 380 */
    bool compact;           /* markers without hover titles (a page with many charts) */
} gs_html_chart;

/* Draw chart as an inline <svg class="plot">. */
void gs_html_chart_draw(FILE *out, const gs_html_chart *chart);

/* The memory hierarchy of doc as an inline <svg id="hierarchy">: the SM with shared memory, its
 * L1-level caches, the L2 with its partitions, DRAM and the TLB levels, each box with the size,
 * line and latency measured, or "not determined" / "not measured". */
void gs_html_hierarchy(FILE *out, const json_t *doc);

/* The curated charts (src/report/html_charts.c), drawn at w x h SVG units with element id id:
 * latency against footprint with the Eq. 6 fit, bandwidth against footprint with its plateaus
 * and the DRAM peak, and the occupancy roofline of every instruction type. A chart whose record
 * is not in doc is a <p class="missing"> saying so. */
void gs_html_staircase(FILE *out, const json_t *doc, const char *id, double w, double h);
void gs_html_bandwidth(FILE *out, const json_t *doc, const char *id, double w, double h);
void gs_html_roofline(FILE *out, const json_t *doc, const char *id, double w, double h);

/* The "Plots" section: bandwidth, the walk of every memory space, shared-memory banks, and one
 * roofline per instruction type with its peak, ridge and pipeline model. */
void gs_html_key_plots(FILE *out, const json_t *doc);

/* A record's series, closed in a <details> (drawn when opened), one chart per series with its fit
 * series dashed on it and its ci95 series as error bars; ids plot-<index>-<series index>. */
void gs_html_record_series(FILE *out, const json_t *rec, size_t index, const char *title);

/* The record of probe name (and level, when not NULL) in doc, or NULL. */
const json_t *gs_html_find_record(const json_t *doc, const char *name, const char *level);

#endif
