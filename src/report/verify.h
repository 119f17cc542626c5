/* Verification of a result document against a simulator model's truth (`gpusonar verify`): for
 * every figure the truth states (src/sim/truth.h), the inferred value, the truth and a verdict.
 * gs_verify_compare decides (pure: two JSON trees in, rows out); gs_verify_print and
 * gs_verify_json present the rows (verify_print.c). */
#ifndef GS_REPORT_VERIFY_H
#define GS_REPORT_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "util/error.h"

typedef enum gs_verdict {
    GS_VERDICT_EXACT = 0,          /* equal (strings, lists, numbers) */
    GS_VERDICT_WITHIN,             /* within the row's stated tolerance, which is not 0 */
    GS_VERDICT_WRONG,              /* anything else the probe stated */
    GS_VERDICT_NOT_DETERMINED,     /* the probe said "not determined" (value null) or did not
                                      report the figure: an honest answer, never wrong */
    GS_VERDICT_COUNT
} gs_verdict;

#define GS_VERIFY_PROBABILITY_TOLERANCE 0.05   /* per way share, as the cache tests always held */
#define GS_VERIFY_LATENCY_PERCENT 0.1          /* relative tolerance of a latency without noise */
#define GS_VERIFY_CLOCK_PERCENT 1.0            /* and of the SM clock */

typedef struct gs_verify_row {
    char record[48];               /* "cache:l1", "smem-banks", ... */
    char figure[64];
    json_t *inferred;              /* the document's value (held), NULL when not reported */
    json_t *truth;                 /* the truth's value (held; JSON null: no such level) */
    double tolerance;              /* allowed |inferred - truth|; 0: it must be exact */
    char why[160];                 /* why the tolerance is what it is */
    char unit[24];                 /* the figure's unit in the document ("" if none) */
    gs_verdict verdict;
    char note[256];                /* why not determined, or where the truth comes from */
} gs_verify_row;

typedef struct gs_verify {
    gs_verify_row *rows;
    size_t count;
    unsigned counts[GS_VERDICT_COUNT];
} gs_verify;

typedef struct gs_verify_opts {
    double tolerance_percent;      /* < 0: each kind's default (latency 5 %, clock 1 %) */
} gs_verify_opts;

/* Compare doc (schema gpusonar/1) with truth ({"model", "records"}) into out (freed with
 * gs_verify_free). Records are matched by probe name and params.level, as "name:level".
 * GS_ERR_INPUT if truth is malformed, GS_ERR_NO_MEMORY. */
int gs_verify_compare(const json_t *doc, const json_t *truth, const gs_verify_opts *opts,
                      gs_verify *out, gs_error *err);
void gs_verify_free(gs_verify *v);

/* "exact", "within tolerance", "wrong", "not determined". */
const char *gs_verdict_name(gs_verdict v);

/* The rows as a text table with a count of each verdict (verify_print.c). */
void gs_verify_print(FILE *out, const gs_verify *v, const char *model, const gs_verify_opts *opts);

/* The rows as JSON: {"model", "counts": {verdict: n}, "rows": [{record, figure, inferred, truth,
 * tolerance, tolerance_why, unit, verdict, note}]}; NULL on out of memory. */
json_t *gs_verify_json(const gs_verify *v, const char *model);

#endif
