/* Which figures of a probe record the text report shows without --details: its headline. The
 * choice lives with the printer, in one table, so that it applies to every document, those
 * written before as well (the document itself keeps every figure). A probe without a row shows
 * every figure. Adding a probe: a row here when it writes more than about a dozen figures. */
#ifndef GS_HEADLINE_H
#define GS_HEADLINE_H

#include <stdbool.h>

/* A column of a headline table: figures "<row>_<suffix>", one row per row name without '_'
 * (the instruction types of pipeline and roofline), the label naming the column and its unit. */
typedef struct gs_headline_column {
    const char *suffix;
    const char *label;
} gs_headline_column;

typedef struct gs_headline {
    const char *probe;
    const char *const *figures;               /* glob patterns (fnmatch), NULL-terminated */
    const char *row_label;                    /* the first column's heading, with columns */
    const gs_headline_column *columns;        /* NULL, or a table ended by a NULL suffix */
} gs_headline;

/* The row of probe, or NULL: every figure is a headline. */
const gs_headline *gs_headline_find(const char *probe);

/* Whether figure is printed as a line of the headline (matches one of the patterns). */
bool gs_headline_line(const gs_headline *h, const char *figure);

/* Whether figure is a cell of the headline table: the row name (its part before
 * "_<suffix>", without '_') goes into row (size len). */
bool gs_headline_cell(const gs_headline *h, const char *figure, int *column, char *row,
                      unsigned len);

/* The name a figure is shown under in text: the JSON key, with the papers' λ (lambda, issue
 * latency) and Λ (Lambda, completion latency) spelt "issue_latency" and "completion_latency"
 * so that no two names differ only by case. */
void gs_headline_label(const char *figure, char *buf, unsigned len);

#endif
