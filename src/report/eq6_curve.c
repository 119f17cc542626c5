/* The random walk's Eq. 6 curve (src/analysis/eq6.c) rebuilt from a document's fit figures, for
 * the HTML page and the gnuplot plots to draw over the measured walk. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/eq6.h"
#include "report/report.h"

#define FIT_POINTS 160

static const json_t *figure_list(const json_t *rec, const char *key)
{
    const json_t *f = json_object_get(json_object_get(json_object_get(rec, "figures"), key),
                                      "value");
    return json_is_array(f) ? f : NULL;
}

json_t *gs_report_eq6_curve(const json_t *walk, const json_t *data, const char *space)
{
    char key[64];
    snprintf(key, sizeof key, "%s_latencies_cycles", space);
    const json_t *lat = figure_list(walk, key);
    snprintf(key, sizeof key, "%s_capacities_bytes", space);
    const json_t *cap = figure_list(walk, key);
    snprintf(key, sizeof key, "%s_step_sharpness", space);
    const json_t *sharp = figure_list(walk, key);
    gs_eq6_fit fit = {0};
    size_t levels = json_array_size(lat) > 0 ? json_array_size(lat) - 1 : 0;
    if (!lat || levels > GS_EQ6_MAX_LEVELS || json_array_size(cap) < levels)
        return NULL;
    fit.levels = (int)levels;
    for (size_t k = 0; k <= levels; k++) {
        if (!json_is_number(json_array_get(lat, k)))
            return NULL;
        fit.latency[k] = json_number_value(json_array_get(lat, k));
    }
    for (size_t k = 0; k < levels; k++) {
        if (!json_is_number(json_array_get(cap, k)))
            return NULL;
        fit.capacity_bytes[k] = json_number_value(json_array_get(cap, k));
        const json_t *g = json_array_get(sharp, k);
        fit.sharpness[k] = json_is_number(g) ? json_number_value(g) : 1;
    }
    double lo = INFINITY, hi = 0;
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(data, "x"), i, x)
        if (json_is_number(x) && json_number_value(x) > 0) {
            lo = fmin(lo, json_number_value(x));
            hi = fmax(hi, json_number_value(x));
        }
    if (!(hi > lo) || !isfinite(lo))
        return NULL;
    json_t *xs = json_array(), *ys = json_array();
    for (int j = 0; j < FIT_POINTS; j++) {
        double s = lo * pow(hi / lo, (double)j / (FIT_POINTS - 1)), y = gs_eq6_eval(&fit, s);
        if (!isfinite(s) || !isfinite(y))
            continue;                      /* a hostile capacity of 0: no point, pairs kept */
        json_array_append_new(xs, json_real(s));
        json_array_append_new(ys, json_real(y));
    }
    return json_pack("{s:o, s:o}", "x", xs, "y", ys);
}

