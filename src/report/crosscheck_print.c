/* The cross-check (result/crosscheck.h) as each printer shows it: the text report (one line in
 * the summary, a line per structure that is apart unexplained; every structure with its views
 * under --details), markdown, CSV rows and an HTML table. Made from the document alone. */
#include "report/crosscheck_print.h"

#include <string.h>

#include "report/report.h"
#include "report/wrap.h"
#include "result/crosscheck.h"
#include "util/escape.h"
#include "util/units.h"

static const char *text_of(const json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "";
}

static bool is(const json_t *obj, const char *verdict)
{
    return strcmp(text_of(obj, "verdict"), verdict) == 0;
}

/* "32.1 cycles ± 0.24", "1.6 KiB" */
static void view_value(const json_t *v, const char *unit, char *buf, size_t len)
{
    gs_units_interval(json_number_value(json_object_get(v, "value")),
                      json_number_value(json_object_get(v, "ci95")), unit, buf, len);
}

/* The quoted view of structure s (the first with verdict "quote"), or NULL. */
static const json_t *quoted(const json_t *s)
{
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(s, "views"), i, v)
        if (is(v, "quote"))
            return v;
    return NULL;
}

static void count(const json_t *list, int *agree, int *apart, int *unexplained)
{
    size_t i;
    const json_t *s;
    *agree = *apart = *unexplained = 0;
    json_array_foreach(list, i, s) {
        *agree += is(s, "agree");
        *apart += is(s, "apart");
        *unexplained += is(s, "unexplained");
    }
}

/* s (UTF-8) and blanks up to width characters, at least one; returns the characters put. */
static int put_padded(FILE *out, const char *s, size_t width)
{
    size_t n = gs_wrap_chars(s);
    fputs(s, out);
    do
        fputc(' ', out);
    while (++n < width);
    return (int)n;
}

/* One structure: its name, verdict and quoted figure in a line of the report's width. */
static void structure_line(FILE *out, const json_t *s, int width)
{
    const json_t *q = quoted(s);
    char value[96] = "-", line[400];
    if (q)
        view_value(q, text_of(s, "unit"), value, sizeof value);
    snprintf(line, sizeof line, "%s; quote %s (%s %s)", text_of(s, "verdict"), value,
             q ? gs_esc(text_of(q, "probe")) : "-", q ? gs_esc(text_of(q, "figure")) : "-");
    fputs("  ", out);
    int column = 2 + put_padded(out, gs_esc(text_of(s, "structure")), 27);
    gs_wrap_print(out, line, column, 6, width);
}

static void view_line(FILE *out, const json_t *s, const json_t *v, int width)
{
    char value[96], line[1200];
    view_value(v, text_of(s, "unit"), value, sizeof value);
    const char *reason = text_of(v, "reason");
    snprintf(line, sizeof line, "%s %s: %s%s%s [%s]", gs_esc(text_of(v, "probe")),
             gs_esc(text_of(v, "figure")), text_of(v, "verdict"), *reason ? ", " : "",
             gs_esc(reason), gs_esc(text_of(v, "sequence")));
    fputs("    ", out);
    int column = 4 + put_padded(out, value, 20);
    gs_wrap_print(out, line, column, 8, width);
}

void gs_report_crosscheck_text(FILE *out, const json_t *doc, unsigned parts)
{
    json_t *list = gs_crosscheck_of(doc);
    int width = gs_wrap_width(out), agree, apart, unexplained;
    size_t i;
    const json_t *s, *v;
    if (!json_array_size(list)) {
        json_decref(list);
        return;
    }
    count(list, &agree, &apart, &unexplained);
    if (parts & GS_REPORT_DETAILS) {
        fprintf(out, "\n== crosscheck (each structure as every probe sees it) ==\n");
        json_array_foreach(list, i, s) {
            structure_line(out, s, width);
            size_t j;
            json_array_foreach(json_object_get(s, "views"), j, v)
                view_line(out, s, v, width);
        }
    } else {
        char line[300];
        snprintf(line, sizeof line, "Cross-check (--details): %zu structures seen by several "
                 "probes, %d agree, %d apart by design%s", json_array_size(list), agree, apart,
                 unexplained ? "; apart UNEXPLAINED:" : "");
        fputc('\n', out);
        gs_wrap_print(out, line, 0, 2, width);
        json_array_foreach(list, i, s)
            if (is(s, "unexplained"))
                structure_line(out, s, width);
    }
    json_decref(list);
}

void gs_report_crosscheck_markdown(FILE *out, const json_t *doc, unsigned parts)
{
    json_t *list = gs_crosscheck_of(doc);
    size_t i, j;
    const json_t *s, *v;
    if (!json_array_size(list)) {
        json_decref(list);
        return;
    }
    fputs("\n### crosscheck\n\n| structure | verdict | figure | value | verdict of the view | "
          "sequence |\n|---|---|---|---|---|---|\n", out);
    json_array_foreach(list, i, s) {
        if (!(parts & GS_REPORT_DETAILS) && is(s, "agree"))
            continue;
        json_array_foreach(json_object_get(s, "views"), j, v) {
            char value[96];
            view_value(v, text_of(s, "unit"), value, sizeof value);
            fputs("| ", out);
            gs_escape_md(out, j ? "" : text_of(s, "structure"));
            fputs(" | ", out);
            gs_escape_md(out, j ? "" : text_of(s, "verdict"));
            fputs(" | ", out);
            gs_escape_md(out, text_of(v, "probe"));
            fputc(' ', out);
            gs_escape_md(out, text_of(v, "figure"));
            fputs(" | ", out);
            gs_escape_md(out, value);
            fputs(" | ", out);
            gs_escape_md(out, text_of(v, "verdict"));
            if (*text_of(v, "reason")) {
                fputs(": ", out);
                gs_escape_md(out, text_of(v, "reason"));
            }
            fputs(" | ", out);
            gs_escape_md(out, text_of(v, "sequence"));
            fputs(" |\n", out);
        }
    }
    json_decref(list);
}

/* Rows in the CSV's columns (probe,level,status,figure,value,unit,ci95,n,method,reason): probe
 * "crosscheck", level the structure, status the view's verdict, figure "record figure", method
 * the sequence. */
void gs_report_crosscheck_csv(FILE *out, const json_t *doc)
{
    json_t *list = gs_crosscheck_of(doc);
    size_t i, j;
    const json_t *s, *v;
    json_array_foreach(list, i, s) {
        json_array_foreach(json_object_get(s, "views"), j, v) {
            char figure[300];
            snprintf(figure, sizeof figure, "%s %s", text_of(v, "probe"), text_of(v, "figure"));
            gs_escape_csv(out, "crosscheck");   /* every text cell quoted, as the others */
            fputc(',', out);
            gs_escape_csv(out, text_of(s, "structure"));
            fputc(',', out);
            gs_escape_csv(out, text_of(v, "verdict"));
            fputc(',', out);
            gs_escape_csv(out, figure);
            fprintf(out, ",%.10g,", json_number_value(json_object_get(v, "value")));
            gs_escape_csv(out, text_of(s, "unit"));
            fprintf(out, ",%.10g,1,", json_number_value(json_object_get(v, "ci95")));
            gs_escape_csv(out, text_of(v, "sequence"));
            fputc(',', out);
            gs_escape_csv(out, text_of(v, "reason"));
            fputc('\n', out);
        }
    }
    json_decref(list);
}

static void html_cell(FILE *out, const char *text)
{
    fputs("<td>", out);
    gs_escape_html(out, text);
    fputs("</td>", out);
}

void gs_report_crosscheck_html(FILE *out, const json_t *doc)
{
    json_t *list = gs_crosscheck_of(doc);
    size_t i, j;
    const json_t *s, *v;
    if (!json_array_size(list)) {
        json_decref(list);
        return;
    }
    fputs("<section id=\"crosscheck\">\n<h2>Cross-check</h2>\n<table>\n<tr><th>structure</th>"
          "<th>verdict</th><th>figure</th><th>value</th><th>view</th><th>sequence</th></tr>\n",
          out);
    json_array_foreach(list, i, s) {
        json_array_foreach(json_object_get(s, "views"), j, v) {
            char value[96], figure[300], verdict[600];
            view_value(v, text_of(s, "unit"), value, sizeof value);
            snprintf(figure, sizeof figure, "%s %s", text_of(v, "probe"), text_of(v, "figure"));
            snprintf(verdict, sizeof verdict, "%s%s%s", text_of(v, "verdict"),
                     *text_of(v, "reason") ? ": " : "", text_of(v, "reason"));
            fputs("<tr>", out);
            html_cell(out, j ? "" : text_of(s, "structure"));
            html_cell(out, j ? "" : text_of(s, "verdict"));
            html_cell(out, figure);
            html_cell(out, value);
            html_cell(out, verdict);
            html_cell(out, text_of(v, "sequence"));
            fputs("</tr>\n", out);
        }
    }
    fputs("</table>\n</section>\n", out);
    json_decref(list);
}
