/* Printers made from the result document alone (DESIGN.md, principle 4): the text report for
 * humans, CSV files of every series, and gnuplot plots. None of them measures anything. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "result/validate.h"
#include "util/error.h"

/* What a report shows: the one-page summary, and every figure of each record (details) instead
 * of its headline figures (src/report/headline.c). */
#define GS_REPORT_SUMMARY 1u
#define GS_REPORT_DETAILS 2u

/* The whole text report: a header (device, backend, completeness), the one-page summary
 * (gs_report_summary) and each probe record's headline figures. */
void gs_report_text(FILE *out, const json_t *doc);

/* The same without the one-page summary when summary is false (`run PROBE`: every figure of its
 * records, the summary's place taken by the details). */
void gs_report_text_part(FILE *out, const json_t *doc, bool summary);

/* The text report of the parts asked for (GS_REPORT_SUMMARY | GS_REPORT_DETAILS). */
void gs_report_text_parts(FILE *out, const json_t *doc, unsigned parts);

/* Output formats of the report (--format). */
typedef enum gs_report_format {
    GS_FORMAT_TEXT = 0,
    GS_FORMAT_MARKDOWN,           /* headings and pipe tables, to paste into an issue or a wiki */
    GS_FORMAT_CSV,                /* one row per figure: probe,level,figure,value,unit,ci95,n,... */
} gs_report_format;

/* "text", "markdown" or "csv" -> format; -1 if none. */
int gs_report_format_parse(const char *name, gs_report_format *out);

/* text as one CSV field, quoted as RFC 4180 asks ("" for a quote inside). */
void gs_csv_field(FILE *out, const char *text);

/* The probe record whose "name[:level]" is key ("cache:l1", "smem-banks"), or NULL. */
const json_t *gs_report_find_record(const json_t *doc, const char *key);

/* The report of doc in a format. parts: GS_REPORT_SUMMARY and/or GS_REPORT_DETAILS (true is
 * the summary and headline figures; false, every figure without the summary). CSV always holds
 * every figure. */
void gs_report_print(FILE *out, const json_t *doc, gs_report_format fmt, unsigned parts);

/* The HTML report: one self-contained page (header, environment, summary, every record's
 * figures and an inline SVG plot of every series) made from the document alone
 * (src/report/html.c). GS_ERR_INPUT if doc is not an object, GS_ERR_IO if writing fails. */
int gs_report_html(FILE *out, const json_t *doc, gs_error *err);

/* One probe record's headline figures, or every figure with GS_REPORT_DETAILS in parts, as an
 * indented table (used by gs_report_text); long reasons wrapped, shortened without details. */
void gs_report_probe(FILE *out, const json_t *probe, unsigned parts);
/* The table of an `atomics` record, one row per operation and type (atomics_table.c). */
void gs_report_atomics_table(FILE *out, const json_t *probe);
/* The table of a `tensor` record, one row per instruction and type (tensor_table.c). */
void gs_report_tensor_table(FILE *out, const json_t *probe);
/* The table of an `l2-persist` record, one row per access-policy window (persist_table.c). */
void gs_report_persist_table(FILE *out, const json_t *probe);

/* The one-page summary: Table III of the roofline paper plus the cache table (Table 4) of the
 * memory paper, from whatever records the document holds (src/report/summary.c). */
void gs_report_summary(FILE *out, const json_t *doc);
/* The instruction table (pipeline --table): one row per class (itable record) with its SASS
 * opcode, issue and completion latency and throughput per SM; nothing when the document has none.
 * The detailed text report prints it before the probes' sections. */
void gs_report_itable(FILE *out, const json_t *doc);

/* Write each series as DIR/<probe>[-<level>]-<series>.csv (x,y with a header). The folder is
 * created if missing. */
int gs_report_csv(const json_t *doc, const char *dir, gs_error *err);

/* Format a figure's value with its unit and interval in the value's unit (util/units.h: "16 KiB",
 * "33.2 cycles ± 0.4 (n=16)", "not determined: ..." with the whole reason) into buf. */
void gs_report_format_figure(const json_t *figure, char *buf, size_t len);

/* Format a figure's value with its unit alone, without its interval ("16 KiB", "33.2 cycles",
 * "not determined: ..."), into buf. */
void gs_report_format_value(const json_t *figure, char *buf, size_t len);

/* A list figure's half-widths ("[0.5, 2, -]": - where one is not known) into buf. */
void gs_report_format_list_ci(const json_t *cis, char *buf, size_t len);

/* Call fn for every series of the document with a file-safe base name
 * "[<record index>-]<probe>[-<level>]-<series>", after creating dir if missing. */
typedef int (*gs_series_fn)(const char *dir, const char *base, const json_t *series, void *ctx,
                            gs_error *err);
int gs_report_each_series(const json_t *doc, const char *dir, bool numbered, gs_series_fn fn,
                          void *ctx, gs_error *err);

/* PNGs made by gnuplot, each with its data file and script, into dir (created if missing): of
 * every series when all is set, else of the curated ones (staircases, average-mode sweeps,
 * bandwidth, roofline, bank sweeps, clock); *count gets the number of plots. */
int gs_report_plots(const json_t *doc, const char *dir, bool all, int *count, gs_error *err);

/* The Eq. 6 curve of a random-walk record's fit figures for space ("global": its
 * global_latencies_cycles, global_capacities_bytes, global_step_sharpness) over the sizes of
 * data, as a new series {x, y}; NULL when the figures are not there. */
json_t *gs_report_eq6_curve(const json_t *walk, const json_t *data, const char *space);

/* Write text as a gnuplot string expression of single-quoted strings, a quote joined in as "'"
 * ('it'."'".'s'), control characters as spaces (gnuplot substitutes nothing inside single
 * quotes: no backquotes, macros or escapes). */
void gs_gnuplot_quote(FILE *f, const char *text);

/* The gnuplot script of one series (plot.c): its PNG and data file named base.png and base.dat,
 * a log x axis when lo..hi (the x range) spans more than two decades; every document string in a
 * single-quoted string (gs_gnuplot_quote). */
void gs_plot_script(FILE *f, const char *base, const json_t *series, double lo, double hi);

/* Run gnuplot (or $GS_GNUPLOT) on script with dir as its working folder: an argument vector,
 * no shell; its output is captured for the error message. 0 or GS_ERR_IO. */
int gs_gnuplot_run(const char *dir, const char *script, gs_error *err);

/* What gs_report_compare found. A CLI exits like diff: 0 when differing, one_sided and
 * records_one_sided are all 0, else 1 (2 for trouble: a document that does not load). */
typedef struct gs_compare_counts {
    int compared;            /* figures present in both documents */
    int differing;           /* beyond both intervals and the tolerance, or another word/list */
    int one_sided;           /* present, or determined, in one document only (incl. records) */
    int records_one_sided;   /* whole probe records present in one document only */
    int run_decided;         /* moved as runs decide (placement, residuals, ties): not counted */
} gs_compare_counts;

/* The default tolerance of gs_report_compare, percent of the larger value. */
#define GS_COMPARE_TOLERANCE_PERCENT 1.0

/* How gs_report_compare_with compares and what it prints. */
typedef struct gs_compare_opts {
    double tolerance_percent;  /* a figure differs only when more than this percent apart too */
    bool all;                  /* print every figure, not only those that differ */
} gs_compare_opts;

/* Print the figures of two documents side by side (full names, with units and intervals): marked
 * * those that differ beyond both half-widths (each its ci95 or the measurement's resolution,
 * whichever is larger) and by more than tolerance_percent of the larger value, ! those present or
 * determined in one document only, ~ (not counted) those that moved as each run decides; only
 * these unless opts->all. Records are matched by name, level and order in time linear in the
 * records. 0, or GS_ERR_USAGE for a negative tolerance. */
int gs_report_compare_with(FILE *out, const json_t *a, const json_t *b,
                           const gs_compare_opts *opts, gs_compare_counts *counts, gs_error *err);

/* gs_report_compare_with printing the changes only. */
int gs_report_compare(FILE *out, const json_t *a, const json_t *b, double tolerance_percent,
                      gs_compare_counts *counts, gs_error *err);


/* Read a result document from path and validate it (gs_report_validate), for `gpusonar report
 * --from FILE`, `compare` and `plot`. GS_ERR_INPUT naming the file and the first problem. */
int gs_report_load(const char *path, json_t **doc, gs_error *err);
/* The same from a document's text in memory (the fuzzer's entry point); name is for messages. */
int gs_report_load_buffer(const char *text, size_t len, const char *name, json_t **doc,
                          gs_error *err);

#endif
