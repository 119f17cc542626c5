/* The result tree of one run (schema gpusonar/1, docs/gpusonar-1.schema.json): the
 * machine-readable source of truth that the text report, CSV files and plots are made from.
 * It is a jansson document; probes add figures and series through these functions only, and
 * src/report/ alone decides how they look. */
#ifndef GS_RESULT_H
#define GS_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "plan.h"

#define GS_SCHEMA "gpusonar/1"

typedef struct gs_run {
    json_t *doc;                  /* the whole document */
    json_t *probes;               /* doc["probes"], a list */
} gs_run;

/* One probe record inside run->probes (borrowed reference). */
typedef json_t gs_probe_out;

/* A new document: tool version, git commit, command line, UTC time; "complete": false until
 * gs_run_finish says otherwise. NULL on out of memory. */
gs_run *gs_run_new(int argc, char **argv);
void gs_run_free(gs_run *run);
void gs_run_set_device(gs_run *run, const gs_device_info *info);
/* --budget: the budget, the seconds planned, and what the plan cut (doc["budget"]). */
/* --concurrent: the environment records how many devices were measured at once. */
void gs_run_set_concurrent(gs_run *run, int devices);
void gs_run_set_budget(gs_run *run, double budget_s, double planned_s, bool thorough_dropped,
                       const char *const *cut, size_t ncut);
/* Mark the document complete (true) or not; interrupted or failed runs stay false. */
void gs_run_finish(gs_run *run, bool complete, const char *why_incomplete);

/* Start a probe record: {name, params:{}, figures:{}, series:{}, status:"running"}. */
gs_probe_out *gs_run_add_probe(gs_run *run, const char *name);
void gs_probe_status(gs_probe_out *p, const char *status, const char *message); /* ok|failed|interrupted */
void gs_probe_warning(gs_probe_out *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_probe_clock(gs_probe_out *p, double khz_before, double khz_after);
void gs_probe_elapsed(gs_probe_out *p, double seconds);

void gs_param_int(gs_probe_out *p, const char *key, long long value);
void gs_param_double(gs_probe_out *p, const char *key, double value);
void gs_param_string(gs_probe_out *p, const char *key, const char *value);
void gs_param_bool(gs_probe_out *p, const char *key, bool value);

/* A measured figure: value with unit, its ci95 (t sigma / sqrt n, Student's t for n - 1 degrees
 * of freedom: gs_t95; 0 when exact or n == 1),
 * sample count n, and the method that made it. */
void gs_figure(gs_probe_out *p, const char *name, double value, const char *unit, double ci95,
               size_t n, const char *method);
/* A figure whose value is a word ("lru", "hashed", ...). */
void gs_figure_text(gs_probe_out *p, const char *name, const char *value, size_t n,
                    const char *method);
/* A figure whose value is a list of numbers (ways per set, per-way probabilities, bits). */
void gs_figure_list(gs_probe_out *p, const char *name, const double *values, size_t count,
                    const char *unit, size_t n, const char *method);
/* The same with a 95 % half-width per element (ci95 a list as long as the value; a NaN half-width
 * is written null: not known). */
void gs_figure_list_ci(gs_probe_out *p, const char *name, const double *values, const double *ci,
                       size_t count, const char *unit, size_t n, const char *method);
/* "not determined": value null, with the reason. */
void gs_figure_nd(gs_probe_out *p, const char *name, const char *unit, const char *method,
                  const char *reason_fmt, ...) __attribute__((format(printf, 5, 6)));

/* A named x/y series (x and y count long). */
void gs_series(gs_probe_out *p, const char *name, const char *x_label, const char *x_unit,
               const char *y_label, const char *y_unit, const double *x, const double *y,
               size_t count);

/* Read back a figure's numeric value (for the report and tests); 0 if found and numeric. */
int gs_figure_get(const gs_probe_out *p, const char *name, double *value);

/* Write the document to path through gs_outfile (util/outfile.h): a regular file atomically,
 * a FIFO or device in place, "-" to stdout. A write error names the path. */
int gs_run_write_json(const gs_run *run, const char *path, gs_error *err);

#endif
