/* Comparison of two result documents (for fleets: the same probe on two cards, or one card on
 * two days). Records are matched by probe name, level and order, through an index of each
 * document's records by name and level (linear in the records, however many share a name).
 * A numeric figure differs (marked *) when the gap is beyond the two half-widths, each its
 * interval or the measurement's resolution, whichever is larger (|a - b| > max(ci95_a, res_a) +
 * max(ci95_b, res_b)), more than the
 * tolerance (percent of the larger, 1 by default; percentage points for a figure in %) and above
 * 0.001 in the figure's unit; a list of
 * numbers differs when one element does under that rule (with its own half-width where ci95 is a
 * list), a word when it is not the same. A figure or a whole record present, or determined, in
 * one document only is a change too (marked !): a figure that became "not determined" is never
 * dropped silently. A figure whose change each run decides rather than the GPU (where an L2 line
 * lands, a fit's residual, the largest of near-equal alternatives) is listed (marked ~) but not
 * counted. Only the changes are printed unless every figure is asked for.
 *
 * The resolution (docs/methods.md, "Comparing two documents"): a document states none, so it is
 * derived from the figure. A median of clock reads in cycles is a whole number of cycles (or a
 * half, between two middle samples), so it moves in steps of one cycle whatever its interval
 * says: its resolution is 1 cycle, and no reading of it is surer than that. A figure in ns that is
 * such a median converted at the document's SM clock (its value is a whole or half number of
 * cycles at that clock, the measured one where the document has the clock probe's record) has
 * one SM cycle's worth of ns. Every other figure has none: its interval alone decides. The rms
 * of a fit's residuals that states no interval gets the sampling interval of a standard
 * deviation from its n points. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/fleet.h"
#include "report/report.h"
#include "util/escape.h"

typedef struct row {
    char *label;                  /* probe[:level].figure, in full */
    char a[80], b[80], rel[24];
    char mark;                    /* ' ', '*', '!' or '~' */
} row;

typedef struct rows {
    row *items;
    size_t count, cap;
} rows;

/* What one comparison needs besides the two documents. */
typedef struct context {
    const json_t *a, *b;
    double tolerance_percent;
    double cycle_ns_a, cycle_ns_b;    /* one SM cycle in ns per document; 0 when unknown */
    gs_compare_counts *counts;
} context;

static const char *level_of(const json_t *p)
{
    return json_string_value(json_object_get(json_object_get(p, "params"), "level"));
}

/* ---- the index of records by name and level -------------------------------------------------- */
/* A key that no two (name, level) pairs share: the name's length, the name, then "N" for no level
 * or "L" and the level. NULL when out of memory (freed by the caller). */
static char *record_key(const json_t *p)
{
    const char *name = json_string_value(json_object_get(p, "name")), *level = level_of(p);
    name = name ? name : "";
    size_t len = strlen(name) + (level ? strlen(level) : 0) + 32;
    char *key = malloc(len);
    if (key)
        snprintf(key, len, "%zu:%s%s%s", strlen(name), name, level ? "L" : "N",
                 level ? level : "");
    return key;
}

/* key -> [records of doc with that name and level, in document order]; NULL when out of
 * memory. */
static json_t *index_records(const json_t *doc)
{
    json_t *index = json_object(), *p;
    size_t i;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        char *key = record_key(p);
        json_t *list = key && index ? json_object_get(index, key) : NULL;
        if (key && index && !list && (list = json_array()))
            json_object_set_new_nocheck(index, key, list);
        int rc = list ? json_array_append(list, p) : -1;
        free(key);
        if (rc) {
            json_decref(index);
            return NULL;
        }
    }
    return index;
}

/* The record of index matching p's name and level whose rank among them is nth, or NULL; *key
 * is p's key, kept by the caller to count ranks (NULL when out of memory). */
static const json_t *find_in(const json_t *index, const char *key, size_t nth)
{
    return key ? json_array_get(json_object_get(index, key), nth) : NULL;
}

/* Rank of a record among the records before it with its name and level: seen counts them per
 * key as the caller walks the document. -1 when out of memory. */
static long next_rank(json_t *seen, const char *key)
{
    json_t *n = json_object_get(seen, key);
    long rank = n ? (long)json_integer_value(n) : 0;
    if (!n && json_object_set_new_nocheck(seen, key, json_integer(1)))
        return -1;
    if (n)
        json_integer_set(n, rank + 1);
    return rank;
}

/* ---- values as people read them -------------------------------------------------------------- */
/* A number without exponent where one is not needed: whole values in full up to 10^15, others to
 * six significant digits. */
static void plain_number(char *buf, size_t len, double x)
{
    double ax = fabs(x);
    if (x == floor(x) && ax < 1e15)
        snprintf(buf, len, "%.0f", x);
    else if (ax >= 1e6 && ax < 1e15)
        snprintf(buf, len, "%.1f", x);
    else if (ax >= 1e-4 || ax == 0)
        snprintf(buf, len, "%.6g", x);
    else
        snprintf(buf, len, "%.3g", x);
}

/* Scale x of unit into the unit people read: bytes in KiB, MiB, GiB, TiB (binary: sizes are
 * powers of two), kHz in MHz; *unit_out is the unit to print. */
static double scaled(double x, const char *unit, double reference, const char **unit_out)
{
    static const char *const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    *unit_out = unit;
    if (strcmp(unit, "B") == 0) {
        int k = 0;
        for (double r = fabs(reference); r >= 1024 && k < 4; r /= 1024)
            k++;
        *unit_out = binary[k];
        return x / pow(1024, k);
    }
    if (strcmp(unit, "kHz") == 0) {
        *unit_out = "MHz";
        return x / 1e3;
    }
    return x;
}

/* "48.0028 MiB +-457.1 KiB", "31 +-0.23 cycles", "12" for a number with its interval (in the
 * value's unit) and unit. */
static void number_text(char *buf, size_t len, double x, double ci, const char *unit)
{
    const char *u;
    char v[40], c[40] = "";
    plain_number(v, sizeof v, scaled(x, unit ? unit : "", x, &u));
    if (ci > 0 && isfinite(ci)) {
        char w[32];
        const char *ignored;
        double s = scaled(ci, unit ? unit : "", x, &ignored);
        snprintf(w, sizeof w, "%.2g", s);
        if (fabs(s) >= 100)
            snprintf(w, sizeof w, "%.0f", s);
        snprintf(c, sizeof c, " +-%s", w);
    }
    snprintf(buf, len, "%s%s%s%s", v, c, u && *u ? " " : "", u ? u : "");
}

/* "[34, 277.5, 730] cycles": the elements as plain numbers (words as they are), cut with "..."
 * past LIST_TEXT_MAX characters so that one list does not widen the whole table. */
#define LIST_TEXT_MAX 48
static void list_text(char *buf, size_t len, const json_t *list, const char *unit)
{
    char text[LIST_TEXT_MAX + 8] = "[";
    size_t used = 1, i;
    const json_t *e;
    json_array_foreach(list, i, e) {
        char one[40];
        if (json_is_number(e))
            plain_number(one, sizeof one, json_number_value(e));
        else
            snprintf(one, sizeof one, "%s",
                     json_is_string(e) ? gs_esc(json_string_value(e)) : "n/d");
        if (used + strlen(one) + 2 > LIST_TEXT_MAX) {
            snprintf(text + used, sizeof text - used, "%s...", i ? ", " : "");
            used = strlen(text);
            break;
        }
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? ", " : "", one);
    }
    snprintf(text + used, sizeof text - used, "]");
    snprintf(buf, len, "%s%s%s", text, unit && *unit ? " " : "", unit ? unit : "");
}

static void value_text(char *buf, size_t len, const json_t *figure)
{
    const json_t *v = json_object_get(figure, "value");
    const char *unit = json_string_value(json_object_get(figure, "unit"));
    if (unit)
        unit = gs_esc(unit);      /* document text: the text rule of escape.h */
    if (!figure)
        snprintf(buf, len, "-");
    else if (json_is_number(v))
        number_text(buf, len, json_number_value(v),
                    json_number_value(json_object_get(figure, "ci95")), unit);
    else if (json_is_string(v))
        snprintf(buf, len, "%s", gs_esc(json_string_value(v)));
    else if (json_is_array(v))
        list_text(buf, len, v, unit);
    else
        snprintf(buf, len, "n/d");
}

/* ---- the resolution -------------------------------------------------------------------------- */
/* Whether x is a whole or half number (a median of integers is one of them). */
static bool whole_or_half(double x)
{
    return isfinite(x) && fabs(2 * x - nearbyint(2 * x)) < 1e-6 * fmax(1, fabs(x));
}

static const json_t *clock_figure(const json_t *doc, const char *name);

/* One SM cycle in ns at the document's SM clock (the clock probe's measured one, which probes
 * convert cycles to ns with, else the device record's), 0 when the document states neither. */
static double cycle_ns(const json_t *doc)
{
    double khz = json_number_value(json_object_get(clock_figure(doc, "sm_clock_khz"), "value"));
    if (!(khz > 0))
        khz = json_number_value(json_object_get(json_object_get(doc, "device"), "sm_clock_khz"));
    return khz > 0 ? 1e6 / khz : 0;
}

/* The resolution of figure f (of a document whose SM cycle lasts cycle_ns) at value x: the rule
 * at the top of this file. */
static double resolution_of(const json_t *f, double x, double cycle_ns)
{
    const char *unit = json_string_value(json_object_get(f, "unit"));
    const char *method = json_string_value(json_object_get(f, "method"));
    if (!unit || !method || !strstr(method, "median"))
        return 0;
    if (strcmp(unit, "cycles") == 0 && whole_or_half(x))
        return 1;
    if (strcmp(unit, "ns") == 0 && cycle_ns > 0 && whole_or_half(x / cycle_ns))
        return cycle_ns;
    return 0;
}

/* ---- the rule -------------------------------------------------------------------------------- */
/* x +- ca against y +- cb (each half-width at least its value's resolution): apart beyond both,
 * the tolerance and 0.001. The tolerance is a share of the larger value, or for a figure that
 * is itself a percentage (`points`) that many percentage points: two runs' SM clocks 0.024 %
 * and 0.016 % from the driver's, or spread by 0.007 % and 0.011 % within a run, have not moved. */
static bool apart(double x, double ca, double y, double cb, double tolerance_percent,
                  bool points)
{
    double gap = fabs(y - x);
    double tolerance = points ? tolerance_percent
                              : tolerance_percent / 100 * fmax(fabs(x), fabs(y));
    return gap > ca + cb && gap > tolerance && gap > 1e-3;
}

/* Whether figure f is a percentage (unit "%"), whose tolerance is in percentage points. */
static bool in_percent(const json_t *f)
{
    const char *unit = json_string_value(json_object_get(f, "unit"));
    return unit && strcmp(unit, "%") == 0;
}

/* The half-width of figure f at value x: its ci95 (null reads as 0); for the rms of a fit's
 * residuals that states none, the sampling interval of a standard deviation estimated from its
 * n points, 1.96 / sqrt(2 n) of it (as the probes that state one compute it). */
static double interval_of(const json_t *f, double x)
{
    double ci = json_number_value(json_object_get(f, "ci95"));
    const char *method = json_string_value(json_object_get(f, "method"));
    json_int_t n = json_integer_value(json_object_get(f, "n"));
    if (ci > 0 || !method || !strstr(method, "residual rms") || n < 2)
        return ci;
    return 1.96 / sqrt(2.0 * (double)n) * fabs(x);
}

static bool numbers_differ(const context *cx, const json_t *fa, const json_t *fb)
{
    double x = json_number_value(json_object_get(fa, "value"));
    double y = json_number_value(json_object_get(fb, "value"));
    return apart(x, fmax(interval_of(fa, x), resolution_of(fa, x, cx->cycle_ns_a)), y,
                 fmax(interval_of(fb, y), resolution_of(fb, y, cx->cycle_ns_b)),
                 cx->tolerance_percent, in_percent(fa) && in_percent(fb));
}

/* Lists of numbers of one length: element by element, each with its own half-width where ci95
 * is a list (0 otherwise); anything else differs unless equal. */
static bool lists_differ(const context *cx, const json_t *fa, const json_t *fb)
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
        double x = json_number_value(e), y = json_number_value(o);
        /* a missing or null half-width reads as 0 */
        if (apart(x, fmax(json_number_value(json_array_get(ca, i)),
                          resolution_of(fa, x, cx->cycle_ns_a)),
                  y, fmax(json_number_value(json_array_get(cb, i)),
                          resolution_of(fb, y, cx->cycle_ns_b)), cx->tolerance_percent,
                  in_percent(fa) && in_percent(fb)))
            return true;
    }
    return false;
}

/* ' ' same within the rule, '*' differs, '!' present or determined in one document only. */
static char classify(const context *cx, const json_t *fa, const json_t *fb)
{
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (!fa || !fb)
        return '!';
    if (json_is_null(va) || json_is_null(vb))
        return json_is_null(va) && json_is_null(vb) ? ' ' : '!';
    if (json_is_number(va) && json_is_number(vb))
        return numbers_differ(cx, fa, fb) ? '*' : ' ';
    if (json_is_array(va) && json_is_array(vb))
        return lists_differ(cx, fa, fb) ? '*' : ' ';
    return json_equal(va, vb) ? ' ' : '*';
}

/* ---- rows ------------------------------------------------------------------------------------ */
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
    name = name ? name : "?";
    size_t len = strlen(name) + (level ? strlen(level) + 1 : 0) + strlen(figure) + 2;
    if (!(w->label = malloc(len)))
        return -1;
    snprintf(w->label, len, "%s%s%s.%s", name, level ? ":" : "", level ? level : "", figure);
    value_text(w->a, sizeof w->a, fa);
    value_text(w->b, sizeof w->b, fb);
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (json_is_number(va) && json_is_number(vb) && json_number_value(va) != 0)
        snprintf(w->rel, sizeof w->rel, "%+.2f %%",
                 (json_number_value(vb) / json_number_value(va) - 1) * 100);
    w->mark = mark;
    r->count++;
    return 0;
}

/* Whether a change of this figure is one that each run decides, not the GPU: the figures fleet
 * does not judge either (placement-dependent ones, residuals of a fit: gs_fleet_not_judged), and
 * a word naming the largest of measured alternatives (its method says "largest"), which flips
 * between near-equal ones. */
static bool run_decides(const char *name, const char *level, const char *figure, const json_t *f)
{
    char key[512];
    snprintf(key, sizeof key, "%s%s%s.%s", name ? name : "?", level ? ":" : "",
             level ? level : "", figure);
    const char *method = json_string_value(json_object_get(f, "method"));
    return gs_fleet_not_judged(key) ||
           (json_is_string(json_object_get(f, "value")) && method &&
            strncmp(method, "largest", 7) == 0);
}

/* Count a figure's verdict and keep its row when it is to be printed. */
static int note_figure(rows *r, const context *cx, bool all, const json_t *rec,
                       const char *figure, const json_t *fa, const json_t *fb, char mark)
{
    const char *name = json_string_value(json_object_get(rec, "name")), *level = level_of(rec);
    if (mark == '*' && run_decides(name, level, figure, fa))
        mark = '~';
    cx->counts->compared += fa && fb;
    cx->counts->differing += mark == '*';
    cx->counts->one_sided += mark == '!';
    cx->counts->run_decided += mark == '~';
    if (mark == ' ' && !all)
        return 0;
    return add_row(r, name, level, figure, fa, fb, mark);
}

/* Rows for a matched pair of records, or for a record of one document alone (pa or pb NULL). */
static int compare_record(rows *r, const context *cx, bool all, const json_t *pa,
                          const json_t *pb)
{
    const json_t *first = pa ? pa : pb;
    const char *fname;
    json_t *f;
    json_object_foreach(json_object_get(pa, "figures"), fname, f) {
        const json_t *fb = json_object_get(json_object_get(pb, "figures"), fname);
        if (note_figure(r, cx, all, first, fname, f, fb, classify(cx, f, fb)))
            return -1;
    }
    json_object_foreach(json_object_get(pb, "figures"), fname, f) {
        if (pa && json_object_get(json_object_get(pa, "figures"), fname))
            continue;
        if (note_figure(r, cx, all, first, fname, NULL, f, '!'))
            return -1;
    }
    if (!pa || !pb)
        cx->counts->records_one_sided++;
    return 0;
}

/* Walk doc's records, each against the record of the other index with its name, level and rank
 * (in_a: doc is A). Records of B that A has are skipped, as the walk over A compared them. */
static int walk(rows *r, const context *cx, bool all, const json_t *doc, const json_t *other,
                bool in_a)
{
    json_t *seen = json_object(), *p;
    size_t i;
    int rc = seen ? 0 : -1;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        char *key = record_key(p);
        long rank = key && !rc ? next_rank(seen, key) : -1;
        const json_t *match = rank >= 0 ? find_in(other, key, (size_t)rank) : NULL;
        free(key);
        if (rank < 0)
            rc = -1;
        else if (in_a)
            rc = compare_record(r, cx, all, p, match);
        else if (!match)
            rc = compare_record(r, cx, all, NULL, p);
        if (rc)
            break;
    }
    json_decref(seen);
    return rc;
}

static int collect(rows *r, const context *cx, bool all)
{
    json_t *index_a = index_records(cx->a), *index_b = index_records(cx->b);
    int rc = index_a && index_b ? walk(r, cx, all, cx->a, index_b, true) : -1;
    if (!rc)
        rc = walk(r, cx, all, cx->b, index_a, false);
    json_decref(index_a);
    json_decref(index_b);
    return rc;
}

static int max_width(int width, const char *text)
{
    return (int)strlen(text) > width ? (int)strlen(text) : width;
}

static void print_rows(FILE *out, const rows *r)
{
    int wl = (int)strlen("figure"), wa = 1, wb = 1;
    for (size_t i = 0; i < r->count; i++) {
        wl = max_width(wl, r->items[i].label);
        wa = max_width(wa, r->items[i].a);
        wb = max_width(wb, r->items[i].b);
    }
    fprintf(out, "%-*s  %*s  %*s  %9s\n", wl, "figure", wa, "A", wb, "B", "B/A-1");
    for (size_t i = 0; i < r->count; i++) {
        const row *w = &r->items[i];
        fprintf(out, "%-*s  %*s  %*s  %9s%s\n", wl, gs_esc(w->label), wa, w->a, wb, w->b, w->rel,
                w->mark == '*' ? "  *" : w->mark == '!' ? "  !" : w->mark == '~' ? "  ~" : "");
    }
}

/* The clock probe's figure `name` of doc, or NULL. */
static const json_t *clock_figure(const json_t *doc, const char *name)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *n = json_string_value(json_object_get(p, "name"));
        if (n && strcmp(n, "clock") == 0 && !level_of(p))
            return json_object_get(json_object_get(p, "figures"), name);
    }
    return NULL;
}

/* A line under the table when the two runs' SM clocks differ beyond their intervals and 0.1 %:
 * the card's state, not a method's, and figures counted against time (ns, GB/s, per second) or
 * in cycles of a fixed amount of work (Eq. 7's lambdas) follow it, by less than the default
 * tolerance of 1 % that would flag the clock itself. Two reports on one H100 read 1980 and 1995
 * MHz (docs/hardware/h100.md). */
static void clock_note(FILE *out, const json_t *a, const json_t *b)
{
    const json_t *fa = clock_figure(a, "sm_clock_khz"), *fb = clock_figure(b, "sm_clock_khz");
    const json_t *va = json_object_get(fa, "value"), *vb = json_object_get(fb, "value");
    if (!json_is_number(va) || !json_is_number(vb) || !(json_number_value(va) > 0))
        return;
    double x = json_number_value(va), y = json_number_value(vb);
    if (!apart(x, json_number_value(json_object_get(fa, "ci95")), y,
               json_number_value(json_object_get(fb, "ci95")), 0.1, false))
        return;
    fprintf(out, "the SM clock differs: A %.0f MHz, B %.0f MHz (%+.2f%%), the card's state; "
            "figures in ns, GB/s or per second, and cycles per fixed work, may follow it\n",
            x / 1e3, y / 1e3, (y / x - 1) * 100);
}

static void print_summary(FILE *out, const gs_compare_counts *c, double tolerance_percent,
                          bool all)
{
    if (!all && !c->differing && !c->one_sided)
        fprintf(out, "%sNo figure differs beyond its intervals and resolution.\n",
                c->run_decided ? "\n" : "");
    fprintf(out, "\n%d figure%s compared; %d differ beyond their intervals, resolution and %g%% "
            "(marked *); %d present or determined in one document only (marked !), %d record%s "
            "in one only", c->compared, c->compared == 1 ? "" : "s", c->differing,
            tolerance_percent, c->one_sided, c->records_one_sided,
            c->records_one_sided == 1 ? "" : "s");
    if (c->run_decided)
        fprintf(out, "; %d moved as runs decide, not counted (marked ~: placement in the L2, a "
                "fit's residual, the largest of near-equal alternatives)", c->run_decided);
    fprintf(out, "%s\n", all ? "" : "; --all lists every figure");
}

int gs_report_compare_with(FILE *out, const json_t *a, const json_t *b,
                           const gs_compare_opts *opts, gs_compare_counts *counts, gs_error *err)
{
    memset(counts, 0, sizeof *counts);
    if (!(opts->tolerance_percent >= 0) || !isfinite(opts->tolerance_percent))
        return gs_fail(err, GS_ERR_USAGE, "--tolerance %g: must be a percentage >= 0",
                       opts->tolerance_percent);
    const char *na = json_string_value(json_object_get(json_object_get(a, "device"), "name"));
    const char *nb = json_string_value(json_object_get(json_object_get(b, "device"), "name"));
    fprintf(out, "A: %s (%s)\nB: %s (%s)\n\n", na ? gs_esc(na) : "?",
            gs_esc(json_string_value(json_object_get(a, "time_utc"))), nb ? gs_esc(nb) : "?",
            gs_esc(json_string_value(json_object_get(b, "time_utc"))));
    context cx = {a, b, opts->tolerance_percent, cycle_ns(a), cycle_ns(b), counts};
    rows r = {0};
    int rc = collect(&r, &cx, opts->all);
    if (!rc && r.count)
        print_rows(out, &r);
    for (size_t i = 0; i < r.count; i++)
        free(r.items[i].label);
    free(r.items);
    if (rc)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory comparing documents");
    print_summary(out, counts, opts->tolerance_percent, opts->all);
    clock_note(out, a, b);
    return 0;
}

int gs_report_compare(FILE *out, const json_t *a, const json_t *b, double tolerance_percent,
                      gs_compare_counts *counts, gs_error *err)
{
    gs_compare_opts opts = {tolerance_percent, false};
    return gs_report_compare_with(out, a, b, &opts, counts, err);
}
