/* The verdicts of `gpusonar verify` (verify.h): each figure of a model's truth against the value a
 * result document inferred, within a tolerance stated per figure with its reason (tolerance_of).
 * Structure (counts, sizes, bits, names) must be equal unless the figure states its own
 * interval; a latency may differ by the model's noise, or where the model has none by a small
 * relative tolerance; the clock by its wander or 1 %; way shares by 0.05 each; a figure the probe
 * left null, or did not report, is "not determined". */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/verify.h"
#include "report/report.h"

const char *gs_verdict_name(gs_verdict v)
{
    static const char *const names[] = {"exact", "within tolerance", "wrong", "not determined"};
    return (unsigned)v < GS_VERDICT_COUNT ? names[v] : "?";
}

/* The record of doc whose key ("name" or "name:level") is key; NULL if none. */

static bool same_number(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1, fabs(b)); }

/* Largest |a[i] - b[i]| of two numeric lists of one length; -1 if they are not such lists. */
static double list_gap(const json_t *a, const json_t *b)
{
    if (json_array_size(a) != json_array_size(b))
        return -1;
    double gap = 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *x = json_array_get(a, i), *y = json_array_get(b, i);
        if (!json_is_number(x) || !json_is_number(y))
            return -1;
        gap = fmax(gap, fabs(json_number_value(x) - json_number_value(y)));
    }
    return gap;
}

/* The allowed difference of a figure of this kind around truth value t, and why (into why):
 *  - structure (counts, sizes, bits, names) is exact: 0;
 *  - a way share is counted from hits under a random policy: 0.05;
 *  - a latency the model adds noise to: that noise, since noise only adds (0 to `noise` cycles
 *    to each reading, so a median or mean reads above the noiseless truth by up to it);
 *  - a latency without noise in the model is what the method computes from timings that only
 *    a kernel's single noise draw disturbs (spread over its thousands of cycles): a small
 *    relative tolerance, GS_VERIFY_LATENCY_PERCENT;
 *  - the clock: the model's wander, else GS_VERIFY_CLOCK_PERCENT;
 *  - a measured time, power or energy: the model's jitter N, which moves each timing either
 *    way, so a median lies within it; without jitter as a latency.
 * --tolerance PCT replaces the relative tolerances, and the noise still holds where larger. */
static double tolerance_of(const char *kind, double t, double noise, const gs_verify_opts *o,
                           char *why, size_t len)
{
    if (strcmp(kind, "probability") == 0) {
        snprintf(why, len, "a way share counted from the hits of a random policy");
        return GS_VERIFY_PROBABILITY_TOLERANCE;
    }
    if (strcmp(kind, "measured") == 0 && noise > 0) {
        snprintf(why, len, "the model's jitter, which moves each timing by up to %g either way",
                 noise);
        return noise;
    }
    bool latency = strcmp(kind, "latency") == 0 || strcmp(kind, "measured") == 0,
         clock = strcmp(kind, "clock") == 0;
    if (!latency && !clock) {
        snprintf(why, len, "exact: a count, size, bit or name");
        return 0;
    }
    bool own = o && o->tolerance_percent >= 0;
    double pct = own ? o->tolerance_percent
                     : latency ? GS_VERIFY_LATENCY_PERCENT : GS_VERIFY_CLOCK_PERCENT;
    double relative = fabs(t) * pct / 100;
    if (noise > 0 && (noise >= relative || (latency && !own))) {
        snprintf(why, len, clock ? "the model's clock wander"
                                 : "the model's noise, which adds 0 to %g cycles to each timed "
                                   "load and never subtracts", noise);
        return noise;
    }
    if (relative == 0)
        snprintf(why, len, "exact: the model states it without noise");
    else
        snprintf(why, len, "%g %% of the truth%s", pct,
                 own ? " (--tolerance)"
                 : latency ? ": the model adds no noise here but one draw per kernel, spread "
                             "over its cycles"
                           : ": a clock measured against the global timer");
    return relative;
}

/* The verdict of an inferred value that is present and not null. */
static gs_verdict judge(const json_t *got, const json_t *want, double tol)
{
    if (json_is_string(want)) {
        const char *g = json_string_value(got), *w = json_string_value(want);
        if (g && strcmp(g, w) == 0)
            return GS_VERDICT_EXACT;
        /* "hashed" (not a bit selection) is true of an XOR index, only less specific. */
        return g && strcmp(g, "hashed") == 0 && strcmp(w, "xor") == 0 ? GS_VERDICT_WITHIN
                                                                      : GS_VERDICT_WRONG;
    }
    double gap;
    if (json_is_number(want)) {
        if (!json_is_number(got))
            return GS_VERDICT_WRONG;
        gap = fabs(json_number_value(got) - json_number_value(want));
        if (same_number(json_number_value(got), json_number_value(want)))
            return GS_VERDICT_EXACT;
    } else if (json_is_array(want)) {
        if ((gap = list_gap(got, want)) < 0)
            return GS_VERDICT_WRONG;
        if (gap <= 1e-9)
            return GS_VERDICT_EXACT;
    } else {
        return GS_VERDICT_WRONG;
    }
    return gap <= tol ? GS_VERDICT_WITHIN : GS_VERDICT_WRONG;
}

/* One row: truth figure `name` (tf) of record `key` against the record rec (may be NULL). */
static void verify_figure(gs_verify_row *row, const char *key, const char *name, const json_t *tf,
                          const json_t *rec, const gs_verify_opts *opts)
{
    const json_t *want = json_object_get(tf, "value");
    const char *kind = json_string_value(json_object_get(tf, "kind"));
    const json_t *f = json_object_get(json_object_get(rec, "figures"), name);
    const json_t *got = json_object_get(f, "value");
    const char *from = json_string_value(json_object_get(tf, "from"));
    snprintf(row->record, sizeof row->record, "%s", key);
    snprintf(row->figure, sizeof row->figure, "%s", name);
    row->truth = json_incref((json_t *)(want ? want : json_null()));
    row->inferred = got ? json_incref((json_t *)got) : NULL;
    const char *unit = json_string_value(json_object_get(f, "unit"));
    snprintf(row->unit, sizeof row->unit, "%s", unit ? unit : "");
    if (json_is_number(want))
        row->tolerance = tolerance_of(kind ? kind : "structure", json_number_value(want),
                                      json_number_value(json_object_get(tf, "noise")), opts,
                                      row->why, sizeof row->why);
    else if (json_is_array(want) && kind && strcmp(kind, "probability") == 0)
        row->tolerance = tolerance_of(kind, 0, 0, opts, row->why, sizeof row->why);
    else
        row->tolerance = tolerance_of("structure", 0, 0, opts, row->why, sizeof row->why);
    snprintf(row->note, sizeof row->note, "%s", from ? from : "");
    if (!want || json_is_null(want)) {                /* the model has no such level */
        row->verdict = !got || json_is_null(got) ? GS_VERDICT_EXACT : GS_VERDICT_WRONG;
    } else if (!rec || !f || !got || json_is_null(got)) {
        const char *reason = json_string_value(json_object_get(f, "reason"));
        row->verdict = GS_VERDICT_NOT_DETERMINED;
        snprintf(row->note, sizeof row->note, "%s", !rec ? "no such record in the document"
                                                    : !f ? "the probe did not report it"
                                                    : reason ? reason : "no reason given");
    } else {
        /* A figure that states its own interval (ci95) is judged within it: a size bracketed by
         * bisection is not wrong for not being exact, only if the truth lies outside. The row
         * then states that interval as its tolerance. */
        double ci = json_number_value(json_object_get(f, "ci95"));
        if (json_is_number(want) && ci > row->tolerance) {
            row->tolerance = ci;
            snprintf(row->why, sizeof row->why, "its own 95 %% interval: the method states it "
                     "no closer");
        }
        row->verdict = judge(got, want, row->tolerance);
    }
}

int gs_verify_compare(const json_t *doc, const json_t *truth, const gs_verify_opts *opts,
                      gs_verify *out, gs_error *err)
{
    const json_t *records = json_object_get(truth, "records");
    memset(out, 0, sizeof *out);
    if (!json_is_object(records))
        return gs_fail(err, GS_ERR_INPUT, "truth: no \"records\" object");
    size_t n = 0;
    const char *key, *name;
    json_t *rec, *tf;
    json_object_foreach((json_t *)records, key, rec)
        n += json_object_size(rec);
    if (n && !(out->rows = calloc(n, sizeof *out->rows)))
        return gs_fail(err, GS_ERR_NO_MEMORY, "verify: out of host memory");
    json_object_foreach((json_t *)records, key, rec) {
        const json_t *found = gs_report_find_record(doc, key);
        json_object_foreach(rec, name, tf) {
            if (!json_is_object(tf)) {
                gs_verify_free(out);
                return gs_fail(err, GS_ERR_INPUT, "truth: %s.%s is not an object", key, name);
            }
            gs_verify_row *row = &out->rows[out->count++];
            verify_figure(row, key, name, tf, found, opts);
            out->counts[row->verdict]++;
        }
    }
    return 0;
}

void gs_verify_free(gs_verify *v)
{
    for (size_t i = 0; i < v->count; i++) {
        json_decref(v->rows[i].inferred);
        json_decref(v->rows[i].truth);
    }
    free(v->rows);
    memset(v, 0, sizeof *v);
}
