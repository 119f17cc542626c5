/* Pieces of the HTML report (src/report/html.c) shared with its plots (src/report/html_plot.c)
 * and its tests: the escaper every string from a document goes through, and the inline SVG plot
 * of one series. */
#ifndef GS_REPORT_HTML_H
#define GS_REPORT_HTML_H

#include <stdio.h>

#include <jansson.h>

/* Write s (NULL writes nothing) HTML-escaped for text and for quoted attribute values: & < > "
 * and ' become entities, control characters other than tab, newline and carriage return become
 * U+FFFD. */
void gs_html_escape(FILE *out, const char *s);

/* One series ({x_label, x_unit, y_label, y_unit, x, y}) as an inline <svg class="plot"> line plot
 * with axes, ticks, labels and the title given; element id is id (made by the caller, not from the
 * document). Points whose x or y is not a number are skipped; x is drawn on a log2 axis when it
 * is positive and spans more than two decades (as src/report/plot.c does for gnuplot). */
void gs_html_plot(FILE *out, const json_t *series, const char *title, const char *id);

#endif
