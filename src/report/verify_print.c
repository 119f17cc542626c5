/* How `gpusonar verify` shows its rows (verify.h): a text table, one line per figure the model
 * states (record, figure, inferred, truth, verdict, and the tolerance with its reason, the reason
 * it was not determined, or where a wrong figure's truth comes from), then the count of each
 * verdict; or the same rows as JSON. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "report/verify.h"
#include "util/escape.h"

/* A value in a few characters: integers whole, others to 6 digits, lists bracketed and cut. */
static void format_value(const json_t *v, char *buf, size_t len)
{
    if (!v || json_is_null(v)) {
        snprintf(buf, len, "%s", v ? "none" : "-");
    } else if (json_is_string(v)) {
        snprintf(buf, len, "%s", gs_esc(json_string_value(v)));
    } else if (json_is_number(v)) {
        double x = json_number_value(v);
        if (x == floor(x) && fabs(x) < 1e15)
            snprintf(buf, len, "%.0f", x);
        else if (fabs(x) >= 1e5 && fabs(x) < 1e15)
            snprintf(buf, len, "%.1f", x);       /* a clock in kHz keeps its digits */
        else
            snprintf(buf, len, "%.6g", x);
    } else if (json_is_array(v)) {
        size_t used = (size_t)snprintf(buf, len, "[");
        for (size_t i = 0; i < json_array_size(v) && used < len; i++) {
            char one[32];
            format_value(json_array_get(v, i), one, sizeof one);
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
        }
        if (used < len)
            snprintf(buf + used, len - used, "]");
        if (used + 1 >= len && len > 4)
            snprintf(buf + len - 5, 5, "...]");
    } else {
        snprintf(buf, len, "?");
    }
}

/* A tolerance in the figure's unit, as people read it: "2 cycles", "468 KiB", "0.05". */
static void format_tolerance(double t, const char *unit, char *buf, size_t len)
{
    static const char *const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    if (strcmp(unit, "B") == 0)
        for (; t >= 1024 && k < 4; k++)
            t /= 1024;
    if (t == floor(t) && t < 1e15)
        snprintf(buf, len, "%.0f", t);
    else if (t >= 100 && t < 1e15)
        snprintf(buf, len, "%.0f", t);
    else
        snprintf(buf, len, "%.3g", t);
    size_t used = strlen(buf);
    const char *u = strcmp(unit, "B") == 0 ? binary[k] : unit;
    if (*u)
        snprintf(buf + used, len - used, " %s", u);
}

void gs_verify_print(FILE *out, const gs_verify *v, const char *model, const gs_verify_opts *opts)
{
    bool own = opts && opts->tolerance_percent >= 0;
    fprintf(out, "Verification against the truth of model %s.\n"
            "Counts, sizes, bits and names must be exact (unless the figure states its own "
            "interval);\na latency may differ by the model's noise, which only adds, or where the "
            "model has none by %g %%;\nthe clock by its wander or %g %%; way shares by %g. A row "
            "within tolerance says its tolerance and why.\n\n", gs_esc(model),
            own ? opts->tolerance_percent : GS_VERIFY_LATENCY_PERCENT,
            own ? opts->tolerance_percent : GS_VERIFY_CLOCK_PERCENT,
            GS_VERIFY_PROBABILITY_TOLERANCE);
    fprintf(out, "%-13s %-28s %-20s %-20s %s\n", "record", "figure", "inferred", "truth",
            "verdict");
    for (size_t i = 0; i < v->count; i++) {
        const gs_verify_row *r = &v->rows[i];
        char got[21], want[21], tol[40], note[480] = "";
        format_value(json_is_null(r->inferred) ? NULL : r->inferred, got, sizeof got);
        format_value(r->truth, want, sizeof want);
        format_tolerance(r->tolerance, r->unit, tol, sizeof tol);
        if (r->verdict == GS_VERDICT_WITHIN)
            snprintf(note, sizeof note, " +-%s: %s", tol, r->why);
        else if (r->verdict == GS_VERDICT_NOT_DETERMINED)
            snprintf(note, sizeof note, ": %.120s", gs_esc(r->note));
        else if (r->verdict == GS_VERDICT_WRONG && r->tolerance > 0)
            snprintf(note, sizeof note, " (beyond +-%s: %s)  <-- truth from %.120s", tol, gs_esc(r->why),
                     gs_esc(r->note));
        else if (r->verdict == GS_VERDICT_WRONG)
            snprintf(note, sizeof note, " (%s)  <-- truth from %.120s", gs_esc(r->why),
                     gs_esc(r->note));
        fprintf(out, "%-13s %-28s %-20s %-20s %s%s\n", gs_esc(r->record), gs_esc(r->figure), got,
                want,
                gs_verdict_name(r->verdict), note);
    }
    fprintf(out, "\n%zu figures: %u exact, %u within tolerance, %u wrong, %u not determined\n",
            v->count, v->counts[GS_VERDICT_EXACT], v->counts[GS_VERDICT_WITHIN],
            v->counts[GS_VERDICT_WRONG], v->counts[GS_VERDICT_NOT_DETERMINED]);
}

json_t *gs_verify_json(const gs_verify *v, const char *model)
{
    json_t *rows = json_array(), *counts = json_object();
    for (int k = 0; counts && k < GS_VERDICT_COUNT; k++)
        json_object_set_new(counts, gs_verdict_name((gs_verdict)k), json_integer(v->counts[k]));
    for (size_t i = 0; rows && i < v->count; i++) {
        const gs_verify_row *r = &v->rows[i];
        json_array_append_new(rows, json_pack("{s:s, s:s, s:O?, s:O, s:f, s:s, s:s, s:s, s:s}",
                                              "record", r->record, "figure", r->figure,
                                              "inferred", r->inferred, "truth", r->truth,
                                              "tolerance", r->tolerance, "tolerance_why", r->why,
                                              "unit", r->unit, "verdict",
                                              gs_verdict_name(r->verdict), "note", r->note));
    }
    return json_pack("{s:s, s:o*, s:o*}", "model", model, "counts", counts, "rows", rows);
}
