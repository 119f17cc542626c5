/* Comparison of two result documents (for fleets: the same probe on two cards, or one card on
 * two days). Records are matched by probe name and level; each shared numeric figure is printed
 * with both values, the difference, and whether it exceeds the two intervals together
 * (|a - b| > ci95_a + ci95_b, more than 1% apart, and above 0.001 in the figure's unit). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "report/report.h"

static const json_t *find_record(const json_t *doc, const char *name, const char *level, size_t nth)
{
    size_t i, seen = 0;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *n = json_string_value(json_object_get(p, "name"));
        const char *l = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
        if (n && strcmp(n, name) == 0 && ((!l && !level) || (l && level && strcmp(l, level) == 0)) &&
            seen++ == nth)
            return p;
    }
    return NULL;
}

int gs_report_compare(FILE *out, const json_t *a, const json_t *b, int *differing)
{
    *differing = 0;
    const char *na = json_string_value(json_object_get(json_object_get(a, "device"), "name"));
    const char *nb = json_string_value(json_object_get(json_object_get(b, "device"), "name"));
    fprintf(out, "A: %s (%s)\nB: %s (%s)\n\n%-34s %16s %16s %9s\n", na ? na : "?",
            json_string_value(json_object_get(a, "time_utc")), nb ? nb : "?",
            json_string_value(json_object_get(b, "time_utc")), "figure", "A", "B", "B/A-1");
    size_t i;
    json_t *pa;
    json_array_foreach(json_object_get(a, "probes"), i, pa) {
        const char *name = json_string_value(json_object_get(pa, "name"));
        const char *level = json_string_value(json_object_get(json_object_get(pa, "params"), "level"));
        if (!name)
            continue;
        size_t nth = 0;
        for (size_t k = 0; k < i; k++) {
            const json_t *q = json_array_get(json_object_get(a, "probes"), k);
            const char *ql = json_string_value(json_object_get(json_object_get(q, "params"), "level"));
            const char *qn = json_string_value(json_object_get(q, "name"));
            nth += qn && strcmp(qn, name) == 0 &&
                   ((!ql && !level) || (ql && level && strcmp(ql, level) == 0));
        }
        const json_t *pb = find_record(b, name, level, nth);
        if (!pb)
            continue;
        const char *fname;
        json_t *fa;
        json_object_foreach(json_object_get(pa, "figures"), fname, fa) {
            const json_t *fb = json_object_get(json_object_get(pb, "figures"), fname);
            const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
            if (!json_is_number(va) || !json_is_number(vb))
                continue;
            double x = json_number_value(va), y = json_number_value(vb);
            double ca = json_number_value(json_object_get(fa, "ci95"));
            double cb = json_number_value(json_object_get(fb, "ci95"));
            double rel = x != 0 ? y / x - 1 : (y == 0 ? 0 : INFINITY);
            /* Beyond both intervals, more than 1% of the larger, and above a floor of 0.001 in the
             * figure's unit (so 0 against 2e-6 % is not a difference). */
            double gap = fabs(y - x);
            bool differs = gap > ca + cb && gap > 0.01 * fmax(fabs(x), fabs(y)) && gap > 1e-3;
            *differing += differs;
            char label[64];
            snprintf(label, sizeof label, "%s%s%s.%s", name, level ? ":" : "", level ? level : "", fname);
            char relbuf[16] = "";
            if (isfinite(rel))
                snprintf(relbuf, sizeof relbuf, "%+.2f%%", rel * 100);
            fprintf(out, "%-34.34s %16.6g %16.6g %9s%s\n", label, x, y, relbuf,
                    differs ? "  *" : "");
        }
    }
    fprintf(out, "\n%d figure%s differ beyond their intervals (marked *)\n", *differing,
            *differing == 1 ? "" : "s");
    return 0;
}
