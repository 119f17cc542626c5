/* Comparison of two result documents (for fleets: the same probe on two cards, or one card on
 * two days). Records are matched by probe name, level and order; every figure of either document
 * is listed with both values. A numeric figure differs (marked *) when the gap is beyond the two
 * intervals together (|a - b| > ci95_a + ci95_b), more than the tolerance (percent of the larger,
 * 1 by default) and above 0.001 in the figure's unit; a list of numbers differs when one element
 * does under that rule (with its own half-width where ci95 is a list), a word when it is not the
 * same. A figure or a whole record present, or determined, in one document only is a change too
 * (marked !): a figure that became "not determined" is never dropped silently. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/escape.h"

typedef struct row {
    char *label;                  /* probe[:level].figure, in full */
    char a[64], b[64], rel[16];
    char mark;                    /* ' ', '*' or '!' */
} row;

typedef struct rows {
    row *items;
    size_t count, cap;
} rows;

static const char *level_of(const json_t *p)
{
    return json_string_value(json_object_get(json_object_get(p, "params"), "level"));
}

static bool same_record(const json_t *p, const char *name, const char *level)
{
    const char *n = json_string_value(json_object_get(p, "name")), *l = level_of(p);
    return n && strcmp(n, name) == 0 && ((!l && !level) || (l && level && strcmp(l, level) == 0));
}

/* The nth record (0-based) of doc with this name and level, or NULL. */
static const json_t *find_record(const json_t *doc, const char *name, const char *level, size_t nth)
{
    size_t i, seen = 0;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        if (same_record(p, name, level) && seen++ == nth)
            return p;
    return NULL;
}

/* How many records before index i of doc share record i's name and level. */
static size_t nth_of(const json_t *doc, size_t i)
{
    const json_t *probes = json_object_get(doc, "probes"), *p = json_array_get(probes, i);
    const char *name = json_string_value(json_object_get(p, "name"));
    size_t nth = 0;
    for (size_t k = 0; k < i && name; k++)
        nth += same_record(json_array_get(probes, k), name, level_of(p));
    return nth;
}

static void value_text(char *buf, size_t len, const json_t *figure)
{
    const json_t *v = json_object_get(figure, "value");
    if (!figure)
        snprintf(buf, len, "-");
    else if (json_is_number(v))
        snprintf(buf, len, "%.6g", json_number_value(v));
    else if (json_is_string(v))
        snprintf(buf, len, "%s", gs_esc(json_string_value(v)));
    else if (json_is_array(v)) {
        char *text = json_dumps(v, JSON_COMPACT);
        snprintf(buf, len, "%s", text ? text : "[...]");
        free(text);
    } else
        snprintf(buf, len, "n/d");
}

/* x +- ca against y +- cb: apart beyond both intervals, the tolerance and 0.001. */
static bool apart(double x, double ca, double y, double cb, double tolerance_percent)
{
    double gap = fabs(y - x);
    return gap > ca + cb && gap > tolerance_percent / 100 * fmax(fabs(x), fabs(y)) && gap > 1e-3;
}

static bool numbers_differ(const json_t *fa, const json_t *fb, double tolerance_percent)
{
    return apart(json_number_value(json_object_get(fa, "value")),
                 json_number_value(json_object_get(fa, "ci95")),   /* null reads as 0 */
                 json_number_value(json_object_get(fb, "value")),
                 json_number_value(json_object_get(fb, "ci95")), tolerance_percent);
}

/* Lists of numbers of one length: element by element, each with its own half-width where ci95
 * is a list (0 otherwise); anything else differs unless equal. */
static bool lists_differ(const json_t *fa, const json_t *fb, double tolerance_percent)
{
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    const json_t *ca = json_object_get(fa, "ci95"), *cb = json_object_get(fb, "ci95");
    size_t i;
    const json_t *e;
    if (json_array_size(va) != json_array_size(vb))
        return true;
    json_array_foreach(va, i, e) {
        const json_t *o = json_array_get(vb, i);
        if (!json_is_number(e) || !json_is_number(o)) {
            if (!json_equal(e, o))
                return true;
            continue;
        }
        /* a missing or null half-width reads as 0 */
        if (apart(json_number_value(e), json_number_value(json_array_get(ca, i)),
                  json_number_value(o), json_number_value(json_array_get(cb, i)),
                  tolerance_percent))
            return true;
    }
    return false;
}

/* ' ' same within the rule, '*' differs, '!' present or determined in one document only. */
static char classify(const json_t *fa, const json_t *fb, double tolerance_percent)
{
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (!fa || !fb)
        return '!';
    if (json_is_null(va) || json_is_null(vb))
        return json_is_null(va) && json_is_null(vb) ? ' ' : '!';
    if (json_is_number(va) && json_is_number(vb))
        return numbers_differ(fa, fb, tolerance_percent) ? '*' : ' ';
    if (json_is_array(va) && json_is_array(vb))
        return lists_differ(fa, fb, tolerance_percent) ? '*' : ' ';
    return json_equal(va, vb) ? ' ' : '*';
}

static int add_row(rows *r, const char *name, const char *level, const char *figure,
                   const json_t *fa, const json_t *fb, char mark)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        row *items = realloc(r->items, cap * sizeof *items);
        if (!items)
            return -1;
        r->items = items;
        r->cap = cap;
    }
    row *w = &r->items[r->count];
    memset(w, 0, sizeof *w);
    size_t len = strlen(name) + (level ? strlen(level) + 1 : 0) + strlen(figure) + 2;
    if (!(w->label = malloc(len)))
        return -1;
    snprintf(w->label, len, "%s%s%s.%s", name, level ? ":" : "", level ? level : "", figure);
    value_text(w->a, sizeof w->a, fa);
    value_text(w->b, sizeof w->b, fb);
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (json_is_number(va) && json_is_number(vb) && json_number_value(va) != 0)
        snprintf(w->rel, sizeof w->rel, "%+.2f%%",
                 (json_number_value(vb) / json_number_value(va) - 1) * 100);
    w->mark = mark;
    r->count++;
    return 0;
}

/* Rows for a matched pair of records, or for a record of one document alone (pa or pb NULL). */
static int compare_record(rows *r, const json_t *pa, const json_t *pb, double tolerance_percent,
                          gs_compare_counts *counts)
{
    const json_t *first = pa ? pa : pb;
    const char *name = json_string_value(json_object_get(first, "name"));
    const char *level = level_of(first);
    const char *fname;
    json_t *f;
    json_object_foreach(json_object_get(pa, "figures"), fname, f) {
        const json_t *fb = json_object_get(json_object_get(pb, "figures"), fname);
        char mark = classify(f, fb, tolerance_percent);
        counts->compared += f && fb;
        counts->differing += mark == '*';
        counts->one_sided += mark == '!';
        if (add_row(r, name, level, fname, f, fb, mark))
            return -1;
    }
    json_object_foreach(json_object_get(pb, "figures"), fname, f) {
        if (pa && json_object_get(json_object_get(pa, "figures"), fname))
            continue;
        counts->one_sided++;
        if (add_row(r, name, level, fname, NULL, f, '!'))
            return -1;
    }
    if (!pa || !pb)
        counts->records_one_sided++;
    return 0;
}

static int collect(rows *r, const json_t *a, const json_t *b, double tolerance_percent,
                   gs_compare_counts *counts)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(a, "probes"), i, p) {
        const json_t *pb = find_record(b, json_string_value(json_object_get(p, "name")),
                                       level_of(p), nth_of(a, i));
        if (compare_record(r, p, pb, tolerance_percent, counts))
            return -1;
    }
    json_array_foreach(json_object_get(b, "probes"), i, p) {
        if (find_record(a, json_string_value(json_object_get(p, "name")), level_of(p),
                        nth_of(b, i)))
            continue;
        if (compare_record(r, NULL, p, tolerance_percent, counts))
            return -1;
    }
    return 0;
}

static void print_rows(FILE *out, const rows *r)
{
    int width = (int)strlen("figure");
    for (size_t i = 0; i < r->count; i++)
        width = (int)strlen(r->items[i].label) > width ? (int)strlen(r->items[i].label) : width;
    fprintf(out, "%-*s %16s %16s %9s\n", width, "figure", "A", "B", "B/A-1");
    for (size_t i = 0; i < r->count; i++) {
        const row *w = &r->items[i];
        fprintf(out, "%-*s %16s %16s %9s%s\n", width, gs_esc(w->label), w->a, w->b, w->rel,
                w->mark == '*' ? "  *" : w->mark == '!' ? "  !" : "");
    }
}

/* The clock probe's figure `name` of doc, or NULL. */
static const json_t *clock_figure(const json_t *doc, const char *name)
{
    return json_object_get(json_object_get(find_record(doc, "clock", NULL, 0), "figures"), name);
}

/* A line under the table when the two runs' SM clocks differ beyond their intervals and 0.1 %:
 * the card's state, not a method's, and figures counted against time (ns, GB/s, per second) or
 * in cycles of a fixed amount of work (Eq. 7's lambdas) follow it, by less than the default
 * tolerance of 1 % that would flag the clock itself. Two reports on one H100 read 1980 and 1995
 * MHz (docs/results/2026-11-27-h100-s19.md). */
static void clock_note(FILE *out, const json_t *a, const json_t *b)
{
    const json_t *fa = clock_figure(a, "sm_clock_khz"), *fb = clock_figure(b, "sm_clock_khz");
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (!json_is_number(va) || !json_is_number(vb) || !(json_number_value(va) > 0))
        return;
    double x = json_number_value(va), y = json_number_value(vb);
    if (!apart(x, json_number_value(json_object_get(fa, "ci95")), y,
               json_number_value(json_object_get(fb, "ci95")), 0.1))
        return;
    fprintf(out, "the SM clock differs: A %.0f MHz, B %.0f MHz (%+.2f%%), the card's state; "
            "figures in ns, GB/s or per second, and cycles per fixed work, may follow it\n",
            x / 1e3, y / 1e3, (y / x - 1) * 100);
}

int gs_report_compare(FILE *out, const json_t *a, const json_t *b, double tolerance_percent,
                      gs_compare_counts *counts, gs_error *err)
{
    memset(counts, 0, sizeof *counts);
    if (!(tolerance_percent >= 0) || !isfinite(tolerance_percent))
        return gs_fail(err, GS_ERR_USAGE, "--tolerance %g: must be a percentage >= 0",
                       tolerance_percent);
    const char *na = json_string_value(json_object_get(json_object_get(a, "device"), "name"));
    const char *nb = json_string_value(json_object_get(json_object_get(b, "device"), "name"));
    fprintf(out, "A: %s (%s)\nB: %s (%s)\n\n", na ? gs_esc(na) : "?",
            gs_esc(json_string_value(json_object_get(a, "time_utc"))), nb ? gs_esc(nb) : "?",
            gs_esc(json_string_value(json_object_get(b, "time_utc"))));
    rows r = {0};
    int rc = collect(&r, a, b, tolerance_percent, counts);
    if (!rc)
        print_rows(out, &r);
    for (size_t i = 0; i < r.count; i++)
        free(r.items[i].label);
    free(r.items);
    if (rc)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory comparing documents");
    fprintf(out, "\n%d figure%s compared; %d differ beyond their intervals and %g%% (marked *); "
            "%d present or determined in one document only (marked !), %d record%s in one only\n",
            counts->compared, counts->compared == 1 ? "" : "s", counts->differing,
            tolerance_percent, counts->one_sided, counts->records_one_sided,
            counts->records_one_sided == 1 ? "" : "s");
    clock_note(out, a, b);
    return 0;
}
