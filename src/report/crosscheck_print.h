/* The cross-check of a document (result/crosscheck.h) in each report format. */
#ifndef GS_REPORT_CROSSCHECK_PRINT_H
#define GS_REPORT_CROSSCHECK_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* Text: with GS_REPORT_DETAILS in parts a section of every structure and its views; else one
 * summary line and a line per structure apart unexplained. Nothing when no structure has two
 * views. */
void gs_report_crosscheck_text(FILE *out, const json_t *doc, unsigned parts);
/* Markdown: a table of the views (without GS_REPORT_DETAILS, of the structures apart only). */
void gs_report_crosscheck_markdown(FILE *out, const json_t *doc, unsigned parts);
/* CSV: a row per view in the columns of the figure rows, probe "crosscheck". */
void gs_report_crosscheck_csv(FILE *out, const json_t *doc);
/* HTML: a section with a table of every view. */
void gs_report_crosscheck_html(FILE *out, const json_t *doc);

#endif
