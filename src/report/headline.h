/* Which figures of a probe record the text report shows without --details: its headline, as
 * the record's hints say (result/hints.h; the runner writes them from the probe's descriptor). A
 * record without hints shows every figure; the document itself keeps every figure. */
#ifndef GS_HEADLINE_H
#define GS_HEADLINE_H

#include <stdbool.h>

#include <jansson.h>

#define GS_HEADLINE_MAX 32

/* A column of a headline table: figures "<row>_<suffix>", one row per row name without '_'
 * (the instruction types of pipeline and roofline), the label naming the column and its unit. */
typedef struct gs_headline_column {
    const char *suffix;
    const char *label;
} gs_headline_column;

/* A record's headline, read from its hints (strings borrowed from the document). */
typedef struct gs_headline {
    const char *const *figures;               /* glob patterns (fnmatch), NULL-terminated */
    const char *row_label;                    /* the first column's heading, with columns */
    const gs_headline_column *columns;        /* NULL, or a table ended by a NULL suffix */
    const char *table;                        /* a table printer's name, or NULL */
    const char *figure_store[GS_HEADLINE_MAX + 1];
    gs_headline_column column_store[GS_HEADLINE_MAX + 1];
} gs_headline;

/* The headline of a probe record from its "hints"; NULL (every figure a headline) when it has
 * none. h is the storage. */
const gs_headline *gs_headline_of(const json_t *record, gs_headline *h);

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
