/* Fleets (src/report/fleet.c, printed by fleet_print.c): many result documents, one per GPU, read
 * together. Documents are grouped by GPU model (device name and compute capability); for every
 * numeric figure of a group the fleet's median and spread are computed and each GPU whose value
 * lies far from the median is an outlier. Pure: documents in, an analysis (a JSON tree, schema
 * gpusonar-fleet/1) out; nothing is measured, nothing is printed here. */
#ifndef GS_FLEET_H
#define GS_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "report/report.h"
#include "util/error.h"

#define GS_FLEET_SCHEMA "gpusonar-fleet/1"

/* When a value is an outlier: all of these must hold.
 *  - robust z-score |0.6745 (x - median) / MAD| above z_threshold (Iglewicz and Hoaglin's
 *    modified z-score); where the MAD is 0 (most GPUs agree exactly) the score is
 *    (x - median) / (1.2533 MeanAD), so a lone deviating GPU among n scores n / 1.2533 (five GPUs
 *    of a model are needed to flag it at 3.5) and a value a large minority shares is not flagged;
 *  - |x - median| above min_relative of |median| (noise of a few per cent is not a fault) and
 *    above 0.001 in the figure's unit;
 *  - |x - median| above the value's own ci95 plus the fleet's median ci95 (what the
 *    measurement itself cannot tell apart is not a difference);
 *  - the figure is judged: placement-dependent figures and fit residuals
 *    (gs_fleet_not_judged) are summarised only, unless judge_all.
 * A group (a GPU model) with fewer than min_gpus GPUs is not judged at all: with two GPUs the
 * median cannot tell which one is off. In a judged group a figure that fewer than min_gpus GPUs
 * report is not judged either. */
typedef struct gs_fleet_options {
    double z_threshold;           /* default 3.5 */
    double min_relative;          /* default 0.05 (5 %) */
    int min_gpus;                 /* default 3: the fewest GPUs of a model that can be judged */
    bool judge_all;               /* default false */
} gs_fleet_options;

/* Why a figure ("probe[:level].figure") is not judged by default, or NULL when it is. */
const char *gs_fleet_not_judged(const char *figure);

/* The defaults above. */
gs_fleet_options gs_fleet_default_options(void);

/* One input: a document read by gs_report_load (doc, borrowed), or a file that could not be read
 * (doc NULL, why says what was wrong). */
typedef struct gs_fleet_input {
    const char *path;
    const json_t *doc;
    const char *why;
} gs_fleet_input;

/* Analyse the inputs into *out (a new JSON object, schema gpusonar-fleet/1):
 *   options, documents (count), invalid [{path, reason}], set_aside [{path, host, uuid, schema,
 *   version, reason}] (documents whose schema or tool version differ from the majority: listed,
 *   never mixed), groups [{device, compute_capability, simulated, judged, not_judged (why, when
 *   not judged), gpus [{path, host, uuid, complete}], figures [{figure, unit, count, median,
 *   spread, min, max, ci95, outliers [...], not_judged (why, when not judged)}]}],
 *   outliers [{device, host, uuid, path, figure, value, unit, median, robust_z, relative}],
 *   not_judged [{device, compute_capability, gpus, reason}] (models with too few GPUs).
 * Returns 0, or GS_ERR_NO_MEMORY. */
int gs_fleet_analyse(const gs_fleet_input *inputs, size_t count, const gs_fleet_options *opt,
                     json_t **out, gs_error *err);

/* Robust statistics of values[0..n) (n >= 1; the array is reordered): the median and the median
 * absolute deviation. */
void gs_fleet_median_mad(double *values, size_t n, double *median, double *mad);

/* Modified z-score of x against a median and MAD; with mad 0 against the mean absolute deviation
 * (+-INFINITY when both are 0 and x differs; 0 when x equals the median). */
double gs_fleet_robust_z(double x, double median, double mad, double mean_ad);

/* How many outliers the analysis found, and whether some input was unusable (invalid or set
 * aside). */
size_t gs_fleet_outlier_count(const json_t *analysis);
/* How many GPU models had too few GPUs to be judged. */
size_t gs_fleet_not_judged_count(const json_t *analysis);
bool gs_fleet_has_trouble(const json_t *analysis);

/* Printers of an analysis: text (a table per GPU model and the outlier list), markdown (the
 * fleet page: one pipe table per GPU model, outliers in bold), csv (one row per GPU model and
 * figure, then one row per outlier) and json (the analysis itself). */
typedef enum gs_fleet_format {
    GS_FLEET_TEXT = 0,
    GS_FLEET_MARKDOWN,
    GS_FLEET_CSV,
    GS_FLEET_JSON,
} gs_fleet_format;

/* "text", "markdown", "csv", "json" -> format; -1 if none. */
int gs_fleet_format_parse(const char *name, gs_fleet_format *out);
void gs_fleet_print(FILE *out, const json_t *analysis, gs_fleet_format fmt);

#endif
