/* Structure in average mode, for an L1 whose replacement or trace budget defeats the fine-grained
 * walks (docs/methods.md, "Structure from average-mode walks"; the stride walks of the
 * memory-hierarchy paper, section 3.2, without a trace): the line (cache/line.c), ways from the
 * blocks stride walks fit at the largest strides and sets = capacity / (ways x line), accepted
 * for a bit-select index when random blocks agreeing on its bits conflict as predicted; else sets
 * and ways from eviction-set reductions over random lines. The policy then comes from the
 * fine-grained tests on the one set found (cache/policy.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gf2.h"
#include "probes/cache/internal.h"

/* ---- ways from stride walks (cw_avg_fits) ---------------------------------------------------- */

/* Whether n blocks at stride S fit: their walk averages within AVG_TOLERANCE of hit_cycles. */
static int stride_blocks_fit(cw_walker *w, uint64_t n, uint64_t stride, double hit_cycles,
                             bool *fit, gs_error *err)
{
    uint64_t *chain = malloc(n * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; i < n; i++)
        chain[i] = i * stride;
    double a;
    int rc = cw_avg_offsets(w, chain, n, &a, err);
    *fit = !rc && a <= hit_cycles * (1 + AVG_TOLERANCE);
    free(chain);
    return rc;
}

int cw_avg_fits(cw_walker *w, uint64_t line_bytes, double hit_cycles, cw_avg_fits_result *out,
                gs_error *err)
{
    int rc = 0;
    /* device memory spaces reach past the capacity search's bound; the constant bank does not */
    uint64_t bound = w->bound, reach = CW_FIT_MAX_STRIDE * (CW_FIT_MAX_BLOCKS + 1);
    if ((w->space == GS_SPACE_GLOBAL || w->space == GS_SPACE_TEXTURE) && bound < reach)
        bound = reach;
    out->n = 0;
    for (uint64_t s = 2 * line_bytes; s <= CW_FIT_MAX_STRIDE && out->n < CW_FIT_STRIDES && !rc;
         s *= 2) {
        uint64_t lo = 1, hi = CW_FIT_MAX_BLOCKS + 1;   /* lo fits; hi: not known to fit */
        bool fit = true, bounded = bound / s < hi;
        if (bounded)
            hi = bound / s;
        if (hi < 2)
            break;
        /* the last stride's count first: doubling the stride seldom changes it (a hashed index
           never does), and two walks then bound the search where a bisection takes eleven */
        uint64_t g = out->n ? out->fit[out->n - 1] : 0, top = hi;
        if (g && g + 1 < hi) {
            rc = stride_blocks_fit(w, g + 1, s, hit_cycles, &fit, err);
            if (!rc && fit)
                lo = g + 1;
            else if (!rc) {
                hi = g + 1;
                rc = stride_blocks_fit(w, g, s, hit_cycles, &fit, err);
                if (!rc)
                    *(fit ? &lo : &hi) = g;
            }
        }
        if (!rc && hi == top && hi - lo > 1) {
            rc = stride_blocks_fit(w, hi, s, hit_cycles, &fit, err);
            if (!rc && fit && bounded)
                break;                              /* the space ends before a conflict */
            if (!rc && fit) {
                out->stride_bytes[out->n] = s;
                out->fit[out->n++] = 0;             /* more than the most tried */
                continue;
            }
        }
        while (!rc && hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            rc = stride_blocks_fit(w, mid, s, hit_cycles, &fit, err);
            if (fit)
                lo = mid;
            else
                hi = mid;
        }
        out->stride_bytes[out->n] = s;
        out->fit[out->n++] = lo;
    }
    return rc;
}

/* ---- sets, ways and mapping ------------------------------------------------------------------ */

/* Whether a cyclic walk over ways + max(1, ways / 8) random blocks that agree on the index bits
 * [low_bit, log2 span) misses while ways of them fit (a bit-select set index predicts both), less
 * a 64th past 64 ways (stride walks judged with a 10 % tolerance can pass a few blocks past a
 * randomised capacity); the other bits above the line are random. The blocks stay inside one
 * 1 MB region, so that they share a 2 MB page more often than not (a first-level TLB of one entry
 * would otherwise add its misses to the averages). over/under: the two walks' averages. */
static int verify_stride_sets(cw_walker *w, uint64_t line, uint64_t span, unsigned low_bit,
                              unsigned ways, double hit, bool *holds, double *over,
                              double *under, gs_error *err)
{
    uint64_t region = 1ull << 20, above = region / span, below = (1ull << low_bit) / line;
    size_t extra = ways + (ways / 8 > 1 ? ways / 8 : 1), fit = ways - (ways > 64 ? ways / 64 : 0);
    uint64_t *b = malloc(extra * sizeof *b);
    *holds = false;
    *over = *under = NAN;
    if (!b)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (above < 1 || above * below < extra) {
        free(b);
        return 0;
    }
    size_t n = 0;
    for (unsigned tries = 0; n < extra && tries < 64 * extra; tries++) {
        uint64_t a = gs_rng_below(&w->rng, above) * span + gs_rng_below(&w->rng, below) * line;
        bool dup = false;
        for (size_t i = 0; i < n; i++)
            dup |= b[i] == a;
        if (!dup)
            b[n++] = a;
    }
    int rc = n == extra ? cw_avg_offsets(w, b, n, over, err) : 0;
    if (!rc && n == extra)
        rc = cw_avg_offsets(w, b, fit, under, err);
    *holds = !rc && n == extra && *over > hit * 1.1 && *under <= hit * 1.1;
    free(b);
    return rc;
}

/* ---- the group reduction of eviction-set searches -------------------------------------------- */

int cw_group_reduce(uint64_t *s, size_t *m, uint64_t *t, cw_misses_fn misses, void *ctx,
                    cw_reduce *opt, gs_error *err)
{
    cw_reduce none = {0};
    if (!opt)
        opt = &none;
    opt->stalled = false;
    bool confirm = opt->confirm;
    size_t groups = 8, n_gone = 0, n_drops = 0;
    /* every dropped line in the order of the drops, and where each drop begins in it */
    size_t most = *m ? *m : 1;
    uint64_t *gone = malloc(most * sizeof *gone);
    size_t *drop_at = malloc(most * sizeof *drop_at);
    int rc = gone && drop_at ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    bool more = true;
    unsigned undo = 0;
    while (!rc && more && *m > 2) {
        size_t size = (*m + groups - 1) / groups;
        bool dropped = false;
        for (size_t g = 0; !rc && more && g * size < *m;) {
            size_t lo = g * size, hi = lo + size < *m ? lo + size : *m, k = 0;
            for (size_t i = 0; i < *m; i++)
                if (i < lo || i >= hi)
                    t[k++] = s[i];
            bool yes = false;
            if (k >= 2)         /* else the group is all that is left: two lines or none remain */
                rc = misses(ctx, t, k, &yes, &more, err);
            if (!rc && yes && confirm && more)   /* a drop needs two verdicts in a row */
                rc = misses(ctx, t, k, &yes, &more, err);
            if (!rc && yes) {
                drop_at[n_drops++] = n_gone;
                memcpy(gone + n_gone, s + lo, (hi - lo) * sizeof *s);
                n_gone += hi - lo;
                memcpy(s, t, k * sizeof *t);
                *m = k;
                dropped = true;
            } else {
                g++;
            }
        }
        if (dropped || rc || !more)
            continue;
        /* No group could go: the lines left must still miss, else a verdict flipped on the way
         * down and dropped lines the miss needed, after which nothing can go; the last drop
         * goes back (at most CW_REDUCE_UNDO times), as eviction-set searches backtrack. */
        bool still = true, checked = n_drops && undo < CW_REDUCE_UNDO;
        if (checked)
            rc = misses(ctx, s, *m, &still, &more, err);
        if (!rc && !still) {
            size_t back = n_gone - drop_at[--n_drops];
            memcpy(s + *m, gone + drop_at[n_drops], back * sizeof *s);
            *m += back;
            n_gone -= back;
            undo++;
            groups = groups / 2 > 8 ? groups / 2 : 8;   /* the lines back need coarser groups */
            continue;
        }
        if (size == 1)
            break;
        if (!rc && opt->stall_groups && groups >= opt->stall_groups) {
            if (!checked)
                rc = misses(ctx, s, *m, &still, &more, err);
            if (!rc && still) {
                opt->stalled = true;
                break;
            }
        }
        groups = groups * 2 < *m ? groups * 2 : *m;
    }
    opt->undone = undo;
    opt->groups = groups;
    free(gone);
    free(drop_at);
    return rc;
}

/* reduce_ways' verdict: a walk averaging more than 10 % over hits misses; 1500 walks at most. */
typedef struct avg_verdict {
    cw_walker *w;
    double hit;
    unsigned walks;
} avg_verdict;

static int avg_misses(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more,
                      gs_error *err)
{
    avg_verdict *v = ctx;
    double avg;
    int rc = cw_avg_offsets(v->w, lines, n, &avg, err);
    *yes = !rc && avg > v->hit * 1.1;
    *more = ++v->walks < 1500;
    return rc;
}

/* Ways of one set under any index (average mode): a pool of random lines of a 1 MB region, 1.5 x
 * the capacity, overflows some sets; groups of it are dropped while the rest still misses (a walk
 * averaging more than 10 % over hits), in finer groups when none can go, until no single line can:
 * ways + 1 lines of one set are left (the group reduction of eviction-set searches). 0 when the
 * pool does not miss or the reduction runs past its budget of walks. */
static int reduce_ways(cw_walker *w, uint64_t line, uint64_t cap_lines, double hit,
                       uint64_t *ways, uint64_t *group, gs_error *err)
{
    uint64_t region = (1ull << 20) / line, n = cap_lines + cap_lines / 2 + 8;
    *ways = 0;
    if (n > region / 2 || n < 4)
        return 0;
    uint64_t *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
    uint32_t *pick = malloc(region * sizeof *pick);
    int rc = s && t && pick ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; !rc && i < region; i++)
        pick[i] = (uint32_t)i;
    for (uint64_t i = 0; !rc && i < n; i++) {                  /* partial Fisher-Yates */
        uint64_t j = i + gs_rng_below(&w->rng, region - i);
        uint32_t x = pick[i];
        pick[i] = pick[j], pick[j] = x;
        s[i] = (uint64_t)pick[i] * line;
    }
    double avg = 0;
    if (!rc)
        rc = cw_avg_offsets(w, s, n, &avg, err);
    avg_verdict v = {.w = w, .hit = hit};
    size_t m = n;
    bool missing = !rc && avg > hit * 1.1;
    if (missing)
        rc = cw_group_reduce(s, &m, t, avg_misses, &v, NULL, err);
    if (!rc && missing && v.walks < 1500 && m > 1 && m <= CW_MAX_WAYS + 1) {
        *ways = m - 1;
        memcpy(group, s, m * sizeof *s);
    }
    free(s), free(t), free(pick);
    return rc;
}

/* ---- an XOR set index (analysis/gf2.h) ------------------------------------------------------- */

#define XOR_MAX_TESTS 512      /* lines tested against one set, at most */
#define XOR_HELD_OUT 16        /* held-out lines of each kind (predicted in the set, random) */


/* The walks' in-set verdict (cw_in_set_fn): a walk of x with set[1..m) (ways lines of the set,
 * which fit) misses only when x is their set's ways + 1-th; value: the walk's average. */
typedef struct walk_in_set_ctx {
    cw_walker *w;
    double hit;
} walk_in_set_ctx;

static int walk_in_set(void *ctx, const uint64_t *set, size_t m, uint64_t x, bool *yes,
                       double *value, gs_error *err)
{
    walk_in_set_ctx *c = ctx;
    uint64_t t[CW_MAX_WAYS + 1];
    memcpy(t, set + 1, (m - 1) * sizeof *t);
    t[m - 1] = x;
    int rc = cw_avg_offsets(c->w, t, m, value, err);
    *yes = !rc && *value > c->hit * 1.1;
    return rc;
}

/* An in-set test, its verdict's value joining its band in b: the verdict function, where x is
 * not one of set[0..m) (a line of the set is in it). */
typedef struct in_set_test {
    cw_in_set_fn fn;
    void *ctx;
    const uint64_t *set;
    size_t m;
} in_set_test;

static int in_set(const in_set_test *s, uint64_t x, bool *yes, cw_bands *b, gs_error *err)
{
    *yes = false;
    for (size_t i = 0; i < s->m; i++)
        if (s->set[i] == x)
            return *yes = true, 0;
    double v;
    int rc = s->fn(s->ctx, s->set, s->m, x, yes, &v, err);
    if (rc)
        return rc;
    cw_bands_add(b, *yes, v);
    return 0;
}

/* Lines set[0] ^ v for v of one or two address bits from the line's to top_bit: conflicts[] gets
 * the v that stay in the set, apart[] those that leave it. */
static int flip_tests(const in_set_test *s, unsigned low, unsigned top, uint64_t *conflicts,
                      size_t *nc, uint64_t *apart, size_t *na, cw_bands *b, gs_error *err)
{
    int rc = 0;
    *nc = *na = 0;
    for (unsigned j = low; j <= top && !rc; j++)
        for (unsigned k = j; k <= top && !rc && *nc + *na < XOR_MAX_TESTS; k++) {
            uint64_t v = (1ull << j) | (1ull << k);
            bool yes;
            rc = in_set(s, s->set[0] ^ v, &yes, b, err);
            if (!rc && yes)
                conflicts[(*nc)++] = v;
            else if (!rc)
                apart[(*na)++] = v;
        }
    return rc;
}

/* Held-out lines: XOR_HELD_OUT that the masks put in the set (random sums of conflicting
 * differences) and XOR_HELD_OUT random lines of the region; how many the walks contradict. */
static int held_out(cw_walker *w, const in_set_test *s, const uint64_t *masks, size_t k,
                    const uint64_t *conflicts, size_t nc, uint64_t bits, size_t *wrong,
                    cw_bands *b, gs_error *err)
{
    int rc = 0;
    uint64_t home = gs_gf2_index(masks, k, s->set[0]);
    *wrong = 0;
    for (size_t i = 0; i < 2 * XOR_HELD_OUT && !rc; i++) {
        uint64_t v = 0;
        if (i < XOR_HELD_OUT)
            for (size_t c = 0; c < nc; c++)
                v ^= gs_rng_below(&w->rng, 2) ? conflicts[c] : 0;
        else
            v = gs_rng_next(&w->rng) & bits;
        bool yes;
        rc = in_set(s, s->set[0] ^ v, &yes, b, err);
        *wrong += !rc && yes != (gs_gf2_index(masks, k, s->set[0] ^ v) == home);
    }
    return rc;
}

/* A reason the index is not determined, after the structure's own. */
static void append_why(cw_level *lv, const char *why)
{
    size_t used = strlen(lv->why_structure);
    snprintf(lv->why_structure + used, sizeof lv->why_structure - used, "; %s", why);
}

unsigned cw_xor_top_bit(const cw_walker *w, uint64_t size_bytes)
{
    unsigned top = log2_floor(16 * size_bytes);
    /* device memory spaces reach past the capacity search's bound (as in cw_avg_fits) */
    bool device = w->space == GS_SPACE_GLOBAL || w->space == GS_SPACE_TEXTURE;
    if (!device && top >= log2_floor(w->bound))
        top = log2_floor(w->bound) - 1;
    return top > 40 ? 40 : top;
}

/* ---- a modulo set index ---------------------------------------------------------------------- */

#define MOD_MAX_TESTS 96       /* distances tested against one set, at most */

/* The in-set verdicts of a modulo test: of the lines a multiple of sets lines from the set's
 * line, how many stayed in the set; of the other distances, how many did (and the first few). */
typedef struct mod_tally {
    cw_bands bands;
    size_t mult_n, mult_in, other_n, other_in;
    char other_in_k[40];
} mod_tally;

/* One distance's verdict: whether line set[0] + k lines stays in the set, tallied. */
static int mod_test(const in_set_test *s, uint64_t line, uint64_t sets, uint64_t k,
                    mod_tally *t, gs_error *err)
{
    bool yes;
    int rc = in_set(s, s->set[0] + k * line, &yes, &t->bands, err);
    if (rc)
        return rc;
    if (k % sets == 0) {
        t->mult_n++, t->mult_in += yes;
        return 0;
    }
    t->other_n++;
    if (yes && t->other_in++ < 3) {
        size_t used = strlen(t->other_in_k);
        snprintf(t->other_in_k + used, sizeof t->other_in_k - used, "%s%llu", used ? ", " : "",
                 (unsigned long long)k);
    }
    return 0;
}

/* A set count that is not a power of two, as line mod sets: lines whole multiples of sets lines
 * from a line of the set found must stay in it (sets, 2 x sets and random multiples up to
 * 16 x capacity), every other distance must leave it (sets +- 1, sets / p for each prime p of
 * sets, whose multiples a smaller period would keep, and random distances). Accepted when
 * every verdict agrees and the in-set walks lie in a band apart from the others; else the
 * mapping stays not determined with the tallies. */
static int modulo_index(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, uint64_t line,
                        double hit, gs_error *err)
{
    char why[320] = "";
    /* distances up to 16 x capacity from the set's line, wherever in its region that line
       lies (the reductions draw lines from a 1 MB region, past 16 x a small capacity) */
    uint64_t span = (2ull << cw_xor_top_bit(w, lv->size_bytes)) - line;
    uint64_t sets = lv->sets, most = span / line;
    mod_tally t = {0};
    walk_in_set_ctx walks = {.w = w, .hit = hit};
    in_set_test s = {.fn = walk_in_set, .ctx = &walks, .set = set, .m = m};
    int rc = 0;
    if (most < 4 * sets) {
        snprintf(why, sizeof why, "%llu sets is not a power of two, and distances up to %llu B "
                 "leave too few multiples of it to test set = line mod sets",
                 (unsigned long long)sets, (unsigned long long)span);
        return append_why(lv, why), 0;
    }
    uint64_t fixed[4 + 16], nf = 0;
    fixed[nf++] = sets, fixed[nf++] = 2 * sets;
    fixed[nf++] = sets - 1, fixed[nf++] = sets + 1;
    for (uint64_t p = 2, r = sets; p <= r && nf < sizeof fixed / sizeof *fixed; p++)
        if (r % p == 0) {
            fixed[nf++] = sets / p;
            while (r % p == 0)
                r /= p;
        }
    for (uint64_t i = 0; i < nf && !rc; i++)
        rc = mod_test(&s, line, sets, fixed[i], &t, err);
    for (int i = 0; i < 2 * XOR_HELD_OUT && !rc; i++) {
        uint64_t k = i < XOR_HELD_OUT ? sets * (1 + gs_rng_below(&w->rng, most / sets - 1))
                                      : 1 + gs_rng_below(&w->rng, most - 1);
        rc = mod_test(&s, line, sets, k, &t, err);
    }
    if (rc)
        return rc;
    cw_bands *b = &t.bands;
    if (t.mult_in < t.mult_n || t.other_in)
        snprintf(why, sizeof why, "%llu sets is not a power of two (no linear index), nor line "
                 "mod %llu: of lines a multiple of %llu lines from a line of the set %zu of %zu "
                 "stayed in it, of other distances %zu of %zu%s%s%s", (unsigned long long)sets,
                 (unsigned long long)sets, (unsigned long long)sets, t.mult_in, t.mult_n,
                 t.other_in, t.other_n, t.other_in ? " (" : "", t.other_in_k,
                 t.other_in ? ")" : "");
    else if (!gs_gf2_bands_apart(b->yes_lo, b->yes_hi, b->yes_n, b->no_lo, b->no_hi, b->no_n))
        snprintf(why, sizeof why, "line mod %llu fits every distance tested, but the walks that "
                 "put a line in the set (%zu, %.1f-%.1f cycles) and out of it (%zu, %.1f-%.1f) "
                 "are not apart by twice the wider band's spread", (unsigned long long)sets,
                 b->yes_n, b->yes_lo, b->yes_hi, b->no_n, b->no_lo, b->no_hi);
    else {
        lv->mapping = CW_MAP_MODULO;
        lv->mapping_method = "set = (address / line) mod sets: lines sets, 2 x sets and random "
                             "multiples of sets lines (up to 16 x capacity) from a line of one "
                             "set stayed in it, and lines sets +- 1, sets / p (p each prime "
                             "factor of sets) and random distances away left it";
    }
    if (why[0])
        append_why(lv, why);
    return 0;
}

int cw_xor_index(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, uint64_t line,
                 const uint64_t *known, size_t n_known, cw_in_set_fn fn, void *ctx,
                 gs_error *err)
{
    char why[320];
    unsigned low = log2_floor(line), top = cw_xor_top_bit(w, lv->size_bytes);
    in_set_test s = {.fn = fn, .ctx = ctx, .set = set, .m = m};
    uint64_t bits = ((2ull << top) - 1) & ~(line - 1);
    uint64_t *conflicts = malloc((XOR_MAX_TESTS + n_known) * sizeof *conflicts);
    uint64_t *apart = malloc(XOR_MAX_TESTS * sizeof *apart);
    int rc = conflicts && apart ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t nc = 0, na = 0, k = 0, wrong = 0, sep = 0;
    uint64_t masks[GS_GF2_MAX_MASKS];
    cw_bands bands = {0};
    why[0] = 0;
    if (!rc && (lv->sets & (lv->sets - 1)))
        snprintf(why, sizeof why, "%u sets is not a power of two: no XOR (linear) function of "
                 "address bits indexes them (modulo an odd count, or a non-linear hash)",
                 lv->sets);
    if (!rc && !why[0])
        rc = flip_tests(&s, low, top, conflicts, &nc, apart, &na, &bands, err);
    size_t flips = nc;
    for (size_t i = 0; !rc && !why[0] && i < n_known; i++)
        conflicts[nc++] = known[i] & bits;
    if (!rc && !why[0]) {
        k = gs_gf2_null_space(conflicts, nc, bits, masks, GS_GF2_MAX_MASKS);
        uint64_t home = gs_gf2_index(masks, k, 0);
        for (size_t i = 0; i < na && k <= GS_GF2_MAX_MASKS; i++)
            sep += gs_gf2_index(masks, k, apart[i]) == home;
        if (k > GS_GF2_MAX_MASKS || (1ull << k) != lv->sets || sep)
            snprintf(why, sizeof why, "of %zu lines one or two address bits (%u..%u) away from "
                     "a set's line, %zu stayed in it: their differences (and %zu of lines found "
                     "in one set) leave %zu XOR masks (%llu sets; %u measured) and %zu of the "
                     "%zu that left unexplained: no linear index of these bits", flips + na, low,
                     top, flips, n_known, k,
                     k < 64 ? (unsigned long long)1 << k : 0ull, lv->sets, sep, na);
    }
    if (!rc && !why[0]) {
        rc = held_out(w, &s, masks, k, conflicts, nc, bits, &wrong, &bands, err);
        if (!rc && wrong)
            snprintf(why, sizeof why, "XOR masks from one- and two-bit moves (bits %u..%u) "
                     "mispredict %zu of %d held-out lines: no linear index of these bits", low,
                     top, wrong, 2 * XOR_HELD_OUT);
    }
    /* every verdict above is one measurement against a threshold (a walk's average against hit
     * x 1.1, or a probe against its target's levels): the fit stands only when the values
     * judged in the set and those judged out lie in bands apart beyond their noise */
    if (!rc && !why[0] && !gs_gf2_bands_apart(bands.yes_lo, bands.yes_hi, bands.yes_n,
                                              bands.no_lo, bands.no_hi, bands.no_n))
        snprintf(why, sizeof why, "the verdicts that put a line in the set (%zu, values "
                 "%.2f-%.2f) and out of it (%zu, %.2f-%.2f) are not apart by twice the wider "
                 "band's spread: the in-set verdicts behind the XOR fit are within the noise",
                 bands.yes_n, bands.yes_lo, bands.yes_hi, bands.no_n, bands.no_lo, bands.no_hi);
    unsigned single[GS_GF2_MAX_MASKS];
    if (!rc && why[0])
        append_why(lv, why);
    else if (!rc && gs_gf2_bit_selection(masks, k, single)) {
        /* masks of one bit each: the index is a bit selection (of bits the stride walks did not
         * show as one, e.g. a capacity a line off its power of two), reported as its bits */
        lv->mapping = CW_MAP_BITS;
        lv->nindex = k;
        memcpy(lv->index_bits, single, k * sizeof *single);
        lv->mapping_method = "address bits whose change moves a line out of its set: the set "
                             "index's masks over GF(2), from the one- and two-bit moves of a line "
                             "that keep it in its set and checked on those that leave it and on "
                             "held-out random lines, are single bits (a bit selection)";
    } else if (!rc) {
        lv->mapping = CW_MAP_XOR;
        lv->nxor = k;
        memcpy(lv->xor_masks, masks, k * sizeof *masks);
        lv->mapping_method = "set index bit i = parity(address & mask i), masks over GF(2) from "
                             "the one- and two-bit moves of a line that keep it in its set "
                             "(address bits from the line to 16 x capacity), checked on the "
                             "moves that leave it and on held-out random lines";
    }
    free(conflicts), free(apart);
    return rc;
}

/* The carve-out preference under which a level that shares its array with shared memory keeps
 * the fewest lines (the largest share of shared memory). */
#define TAGS_CARVEOUT 100

/* Tags beyond data: sets x ways x line exceeds the capacity. Under TAGS_CARVEOUT three walks: ways
 * lines of the set found, ways + 1 of them, and one line of every set (the first line of each
 * index value under the masks). If the ways lines hit (the ways + 1 and the one-per-set walks
 * average over (1 + AVG_TOLERANCE) times theirs) the level then holds fewer lines than it has
 * sets while a set still holds its ways: no division of the lines among the sets explains the ways
 * (a set would own less than one line), so the sets and ways are the tags', the capacity is the
 * data the carve-out leaves (the H100's L1: 512 sets x 4 ways of tags over the 256 KB it shares
 * with shared memory, 1480 lines at the trace's carve-out, 168 at the largest). *yes when so;
 * note says what was measured either way. */
static int tags_beyond_data(cw_walker *w, const cw_level *lv, const uint64_t *set,
                            uint64_t line, uint64_t sets, uint64_t ways, bool *yes, char *note,
                            size_t len, gs_error *err)
{
    *yes = false;
    uint64_t *one = calloc(sets, sizeof *one), found = 0;
    uint8_t *seen = calloc(sets, 1);
    int rc = one && seen ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t j = 0; !rc && found < sets && j < (sets << 12); j++) {
        uint64_t at = gs_gf2_index(lv->xor_masks, lv->nxor, j * line);
        if (at < sets && !seen[at])
            seen[at] = 1, one[found++] = j * line;
    }
    double fit = 0, over = 0, spread = 0;
    if (!rc)
        rc = cw_avg_offsets_at(w, set, (size_t)ways, TAGS_CARVEOUT, &fit, err);
    if (!rc)
        rc = cw_avg_offsets_at(w, set, (size_t)ways + 1, TAGS_CARVEOUT, &over, err);
    if (!rc && found == sets)
        rc = cw_avg_offsets_at(w, one, (size_t)sets, TAGS_CARVEOUT, &spread, err);
    free(one), free(seen);
    if (rc)
        return rc;
    if (found < sets) {
        snprintf(note, len, "no line found for %llu of the %llu sets",
                 (unsigned long long)(sets - found), (unsigned long long)sets);
        return 0;
    }
    double limit = fit * (1 + AVG_TOLERANCE);
    *yes = over > limit && spread > limit;
    snprintf(note, len, "under a %d %% carve-out preference one line in each of its %llu sets "
             "walked at %.1f cycles a load (%s) while %llu lines of one set walked at %.1f and "
             "%llu at %.1f", TAGS_CARVEOUT, (unsigned long long)sets, spread,
             spread > limit ? "misses: fewer lines than sets" : "hits: not fewer lines than sets",
             (unsigned long long)ways, fit, (unsigned long long)ways + 1, over);
    return 0;
}

/* Where neither moves of one or two bits nor line mod sets index the set: XOR masks from many
 * lines of it (cw_xor_members). Masks making 2^k sets where capacity / (ways x line) made
 * another count: with more tags than lines (tags_beyond_data) the sets and ways are the tags';
 * else they stay not determined: the sets then hold unequal ways, or the level holds fewer
 * lines than its tags in a way these walks do not show. */
static int members_index_masks(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m,
                               uint64_t line, uint64_t ways, gs_error *err)
{
    char why[300], note[300] = "";
    int rc = cw_xor_members(w, lv, set, m, line, cw_xor_top_bit(w, lv->size_bytes), why,
                            sizeof why, err);
    if (rc || lv->mapping != CW_MAP_XOR) {
        if (!rc)
            append_why(lv, why);
        return rc;
    }
    uint64_t sets = 1ull << lv->nxor;
    if (sets == lv->sets)
        return 0;
    bool tags = false;
    if (sets * ways * line > lv->size_bytes && m > ways)
        rc = tags_beyond_data(w, lv, set, line, sets, ways, &tags, note, sizeof note, err);
    if (rc)
        return rc;
    if (tags) {
        lv->sets = (unsigned)sets;
        lv->ways_per_set[0] = (unsigned)ways;
        lv->nsets = 1;
        lv->sets_method = "tags: sets = 2^(XOR masks), ways = lines of one set that walk as "
                          "hits (one more misses); the level holds fewer lines of data than "
                          "tags (sets x ways x line exceeds the capacity): under the largest "
                          "shared-memory carve-out one line in each set missed while a set "
                          "still held its ways (figure tag_bytes)";
        lv->tag_bytes = sets * ways * line;
        snprintf(lv->tags_note, sizeof lv->tags_note, "sets x ways x line of the tags; the data "
                 "held %llu B (%llu lines) at the trace's carve-out, and %s",
                 (unsigned long long)lv->size_bytes, (unsigned long long)(lv->size_bytes / line),
                 note);
        return 0;
    }
    snprintf(lv->why_structure, sizeof lv->why_structure, "the index found (its masks over "
             "GF(2): the mapping) makes %llu sets and the sets found hold %llu ways, but %llu x "
             "%llu x %llu B = %llu B is not the capacity (%llu B, %llu lines): the sets hold "
             "unequal ways, or fewer lines in all than their tags (data storage shared with "
             "shared memory)%s%s (%u sets if all held %llu)",
             (unsigned long long)sets, (unsigned long long)ways, (unsigned long long)sets,
             (unsigned long long)ways, (unsigned long long)line,
             (unsigned long long)(sets * ways * line), (unsigned long long)lv->size_bytes,
             (unsigned long long)(lv->size_bytes / line), note[0] ? "; " : ", which these walks "
             "cannot tell apart", note, lv->sets, (unsigned long long)ways);
    lv->sets = 0;
    lv->nsets = 0;
    return 0;
}

/* members_index_masks, with masks of one bit each reported as the bit selection they are (as
 * cw_xor_index does): the index is the same, named as the stride walks would name it. The masks
 * stay in xor_masks for the sets' own use. */
static int members_index(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m,
                         uint64_t line, uint64_t ways, gs_error *err)
{
    int rc = members_index_masks(w, lv, set, m, line, ways, err);
    unsigned single[GS_GF2_MAX_MASKS];
    if (rc || lv->mapping != CW_MAP_XOR || !gs_gf2_bit_selection(lv->xor_masks, lv->nxor, single))
        return rc;
    char how[sizeof lv->mapping_method_buf];
    snprintf(how, sizeof how, "%s", lv->mapping_method ? lv->mapping_method : "");
    lv->mapping = CW_MAP_BITS;
    lv->nindex = lv->nxor;
    memcpy(lv->index_bits, single, lv->nxor * sizeof *single);
    snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf, "%.300s; the masks are single "
             "bits (a bit selection)", how);
    lv->mapping_method = lv->mapping_method_buf;
    return 0;
}

/* No index confirmed the set count that capacity / (ways x line) made: the count is not
 * determined (docs/methods.md, "Structure from average-mode walks"). The quotient makes the
 * capacity by construction, so that agreement is no evidence, and a power of two is none either:
 * where the usable capacity is a carve-out of a larger array (data for fewer lines than tags) or
 * the sets hold unequal ways, the quotient is another number (370 of an L1 of 512 sets x 4 ways
 * holding 1480 lines). Only an index that predicts which lines share a set, checked on lines it
 * did not come from, counts the sets apart from the capacity. The ways stay: they are lines of
 * one set that three reductions agree on. */
static void quotient_unconfirmed(cw_level *lv, uint64_t ways, uint64_t line)
{
    char why[sizeof lv->why_structure];
    snprintf(why, sizeof why, "capacity / (ways x line) = %llu B / (%llu x %llu B) = %u sets, but "
             "no index confirms that count (neither XOR masks, nor line mod sets, nor many lines "
             "of one set fit): where the capacity is a carve-out of a larger array, or the sets "
             "hold unequal ways, the quotient is not the set count; %.600s",
             (unsigned long long)lv->size_bytes, (unsigned long long)ways,
             (unsigned long long)line, lv->sets, lv->why_structure);
    snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
    lv->sets = 0;
    lv->sets_method = "ways: lines of one set left by an eviction-set reduction over random lines "
                      "(three pools agree), less one; sets: only from an index that predicts "
                      "which lines share a set (XOR masks, line mod sets, or the tags')";
}

/* Sets and ways of a level whose index is not a bit selection: three reductions (reduce_ways)
 * from different random pools must agree (to a 64th), and sets x ways x line must be the
 * capacity within 3 %. Unequal sets give different ways and are refused. The last reduction's
 * ways + 1 lines of one set then go through the fine-grained policy tests (cw_infer_policy). */
static int hashed_sets(cw_walker *w, cw_level *lv, uint64_t line, double hit, const char *why,
                       gs_error *err)
{
    uint64_t r[3] = {0, 0, 0}, cap_lines = lv->size_bytes / line, group[CW_MAX_WAYS + 1];
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++)
        rc = reduce_ways(w, line, cap_lines, hit, &r[i], group, err);
    if (rc)
        return rc;
    uint64_t lo = r[0], hi = r[0];
    for (int i = 1; i < 3; i++)
        lo = r[i] < lo ? r[i] : lo, hi = r[i] > hi ? r[i] : hi;
    uint64_t ways = r[2], sets = lo ? (lv->size_bytes + ways * line / 2) / (ways * line) : 0;
    uint64_t d = udiff(sets * ways * line, lv->size_bytes);
    uint64_t tol = lv->size_bytes / 32 > line ? lv->size_bytes / 32 : line;
    if (!lo || hi - lo > hi / 64 || !sets || d > tol) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "%.420s; eviction-set reductions "
                 "over three pools of random lines left %llu, %llu and %llu lines of one set%s",
                 why, (unsigned long long)r[0], (unsigned long long)r[1],
                 (unsigned long long)r[2], lo && hi - lo <= hi / 64
                                               ? ", which do not make the capacity"
                                               : " (0: none): unequal sets, or a policy that "
                                                 "defeats the reduction");
        return 0;
    }
    lv->sets = (unsigned)sets;
    lv->ways_per_set[0] = (unsigned)ways;
    lv->nsets = 1;
    lv->sets_method = "ways: lines of one set left by an eviction-set reduction over random lines "
                      "(three pools agree), less one; sets: capacity / (ways x line)";
    lv->mapping = CW_MAP_NONE;
    snprintf(lv->why_structure, sizeof lv->why_structure, "%.380s", why);
    /* the last reduction's lines are ways + 1 blocks of one set: the index from moves of one
     * of them (XOR masks for a power-of-two set count, else line mod sets), and the
     * fine-grained policy tests */
    size_t m = (size_t)r[2] + 1;
    walk_in_set_ctx walks = {.w = w, .hit = hit};
    int rc2 = lv->sets & (lv->sets - 1)
                  ? modulo_index(w, lv, group, m, line, hit, err)
                  : cw_xor_index(w, lv, group, m, line, NULL, 0, walk_in_set, &walks, err);
    if (!rc2 && lv->mapping == CW_MAP_NONE)
        rc2 = members_index(w, lv, group, m, line, ways, err);
    if (rc2)
        return rc2;
    if (lv->mapping == CW_MAP_NONE && lv->sets)
        quotient_unconfirmed(lv, ways, line);
    lv->policy = GS_POLICY_UNKNOWN;
    lv->why_policy[0] = 0;
    return cw_infer_policy(w, lv, group, (size_t)r[2] + 1, 0, err);
}

/* The level's end again at its line's stride, where the line came out shorter than the sweep's
 * stride s. A sweep at s reads C x s / L only where its walks reach every set: an index that a
 * stride of 2 L halves (a bit selection, line mod sets) leaves it half the tags, and their lines
 * times s are the tags' bytes, not the data's where the level holds fewer lines than tags (a
 * carve-out): 48 x 4 tags of 64 B over 144 lines of data read 12,288 B at 128 B, 9,216 at 64.
 * An end that moves beyond both intervals replaces the size; one not found leaves it not
 * determined (size_nd_why). */
static int end_at_line(cw_walker *w, cw_level *lv, uint64_t sweep_stride, uint64_t line,
                       gs_error *err)
{
    cw_avg_sweep re;
    uint64_t bound = 4 * lv->size_bytes > 1024 * 1024 ? 4 * lv->size_bytes : 1024 * 1024;
    int rc = cw_avg_levels(w, 1024, bound, line, -1, -1, &re, err);
    if (rc)
        return rc;
    if (re.count == 0) {
        snprintf(lv->size_nd_why, sizeof lv->size_nd_why, "the sweep at %llu B ended at %llu B, "
                 "but the line is %llu B and a sweep at the line found no end: %.300s",
                 (unsigned long long)sweep_stride, (unsigned long long)lv->size_bytes,
                 (unsigned long long)line, re.why);
        snprintf(lv->why_structure, sizeof lv->why_structure, "the size was not determined "
                 "(%.400s)", lv->size_nd_why);
        return 0;
    }
    const cw_avg_level *e = &re.levels[0];
    double apart = fabs((double)e->size_bytes - (double)lv->size_bytes);
    if (apart <= e->ci95_bytes + lv->size_ci95_bytes + (double)line)
        return 0;
    snprintf(lv->size_method_buf, sizeof lv->size_method_buf, "%.400s; taken again at the "
             "line's stride (%llu B), the sweep's (%llu B) having read %llu B",
             lv->size_method ? lv->size_method : "", (unsigned long long)line,
             (unsigned long long)sweep_stride, (unsigned long long)lv->size_bytes);
    lv->size_method = lv->size_method_buf;
    lv->size_bytes = e->size_bytes;
    lv->size_ci95_bytes = e->ci95_bytes;
    return 0;
}

/* Line, sets, ways and mapping from average-mode walks, and the policy from the fine-grained
 * tests on one set they found, for an L1-like level whose fine-grained structure was not
 * determined: the line from cw_avg_line; ways = the blocks that stride walks fit at the largest
 * strides (cw_avg_fits), sets = capacity / (ways x line), accepted for a bit-select index when
 * random blocks agreeing on the index bits conflict as predicted; else sets and ways from
 * eviction-set reductions over random lines (hashed_sets). */
int cw_avg_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw,
                     cw_avg_fits_result *fits, gs_error *err)
{
    char why[640];
    const cw_avg_level *a = &sw->levels[0];
    uint64_t line = 0, floor_stride = lv->fetch_bytes ? lv->fetch_bytes : 8;
    int rc = cw_avg_line(w, a->size_bytes, a->hit_cycles, a->next_cycles, floor_stride, &line, err);
    if (rc || !line) {
        snprintf(why, sizeof why, "%.400s; average-mode line walks saw no line either",
                 lv->why_structure);
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
        return rc;
    }
    lv->line_bytes = line;
    lv->line_method = "half the smallest stride s at which a random walk of 1.5 x capacity / s "
                      "elements, one per s-byte slot, fits (average mode)";
    if (line < sw->stride_bytes && (rc = end_at_line(w, lv, sw->stride_bytes, line, err)) != 0)
        return rc;
    if (lv->size_nd_why[0])
        return 0;
    if ((rc = cw_avg_fits(w, line, a->hit_cycles, fits, err)) != 0)
        return rc;
    size_t n = fits->n;
    uint64_t ways = n ? fits->fit[n - 1] : 0;
    bool none = n > 0;
    for (size_t i = 0; i < n; i++)
        none = none && fits->fit[i] == 0;
    if (none) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "the fine-grained walks found no "
                 "conflicting set, and more than %d blocks fit at every power-of-two stride from "
                 "%llu B to %llu B (series ways_by_stride): no selection of the address bits "
                 "below bit %u picks the set; a bit-select index would need %d or more ways (a "
                 "hash of higher bits, or near full associativity)", CW_FIT_MAX_BLOCKS,
                 (unsigned long long)fits->stride_bytes[0],
                 (unsigned long long)fits->stride_bytes[n - 1],
                 log2_floor(fits->stride_bytes[n - 1]) + 1, CW_FIT_MAX_BLOCKS);
        return 0;
    }
    if (n < 2 || !ways || !fits->fit[n - 2] ||
        udiff(fits->fit[n - 2], ways) > ways / 64) {
        char nb[320];
        snprintf(nb, sizeof nb, "the blocks that stride walks fit still change at the largest "
                 "stride (%llu B; series ways_by_stride): no bit selection found",
                 (unsigned long long)CW_FIT_MAX_STRIDE);
        return hashed_sets(w, lv, line, a->hit_cycles, nb, err);
    }
    /* the stride from which the count holds (to a 64th: walks near a randomised capacity vary) */
    size_t i0 = n - 1;
    while (i0 > 0 && fits->fit[i0 - 1] && udiff(fits->fit[i0 - 1], ways) <= ways / 64)
        i0--;
    /* sets from the capacity; their index bits are the log2(sets) bits below the stride from
     * which every block lands in one set (contiguous from the line, or higher: Kepler's texture
     * L1 indexes on bits 7-8 above 32-B lines) */
    uint64_t span = fits->stride_bytes[i0];
    uint64_t sets = (lv->size_bytes + ways * line / 2) / (ways * line);
    uint64_t d = udiff(sets * ways * line, lv->size_bytes);
    /* within a line, or 3 % for sets of hundreds of ways (the walks' 10 % latency tolerance
     * lets a few blocks past a randomised capacity pass) */
    uint64_t tol = lv->size_bytes / 32 > line ? lv->size_bytes / 32 : line;
    bool pow2 = sets && (sets & (sets - 1)) == 0 && sets * line <= span && (ways > 64 || d < line);
    unsigned low = pow2 ? log2_floor(span) - log2_floor(sets) : 0;
    bool holds = pow2 && d <= tol;
    double over = NAN, under = NAN;
    for (int draw = 0; draw < 3 && holds && !rc; draw++)    /* three random draws must all hold */
        rc = verify_stride_sets(w, line, span, low, (unsigned)ways, a->hit_cycles, &holds, &over,
                                &under, err);
    if (rc)
        return rc;
    if (!pow2 || d > tol || !holds) {
        char detail[240];
        if (!pow2 || d > tol)
            snprintf(detail, sizeof detail, "capacity / (ways x line) is not a power of two "
                     "within the stride");
        else if (sets == 1) {
            /* the whole capacity fits at every stride, yet random lines overflow: sets exist,
             * and power-of-two strides spread over them evenly */
            char hash[640];
            snprintf(hash, sizeof hash, "the whole capacity (%llu blocks of %llu B) fits at "
                     "every power-of-two stride from %llu B to %llu B, yet %llu random blocks of a "
                     "1 MB region do not (%.1f cycles against hits at %.1f): the sets spread "
                     "power-of-two strides evenly, so the set index is not a bit selection (a "
                     "hash of address bits, or modulo an odd set count)", (unsigned long long)ways,
                     (unsigned long long)line, (unsigned long long)fits->stride_bytes[0],
                     (unsigned long long)fits->stride_bytes[n - 1],
                     (unsigned long long)(ways - (ways > 64 ? ways / 64 : 0)), under,
                     a->hit_cycles);
            return hashed_sets(w, lv, line, a->hit_cycles, hash, err);
        }
        else
            snprintf(detail, sizeof detail, "random blocks that agree on its index bits (%u..%u) "
                     "do not conflict as that predicts (%llu of them averaged %.1f cycles, fewer "
                     "%.1f; hits %.1f)", low, log2_floor(span) - 1, (unsigned long long)(ways +
                     (ways / 8 > 1 ? ways / 8 : 1)), over, under, a->hit_cycles);
        char nb[640];
        snprintf(nb, sizeof nb, "stride walks fit %llu blocks of %llu B from a %llu-B stride on "
                 "(%llu such sets would make the capacity), but %s: not a bit-select set index "
                 "(a hashed or modulo one spreads strided blocks over sets)",
                 (unsigned long long)ways, (unsigned long long)line, (unsigned long long)span,
                 (unsigned long long)sets, detail);
        return hashed_sets(w, lv, line, a->hit_cycles, nb, err);
    }
    lv->why_structure[0] = 0;
    lv->sets = (unsigned)sets;
    lv->ways_per_set[0] = (unsigned)ways;
    lv->nsets = 1;
    lv->sets_method = "ways: most blocks a stride walk holds at the largest strides; sets: the "
                      "smallest such stride / line (average mode, checked with random blocks)";
    lv->mapping = CW_MAP_BITS;
    lv->nindex = 0;
    for (unsigned k = low; k < log2_floor(span) && lv->nindex < 64; k++)
        lv->index_bits[lv->nindex++] = k;
    /* policy: the fine-grained tests on ways + 1 blocks of one set (stride span apart) */
    uint64_t group[CW_MAX_WAYS + 1];
    if (ways + 1 > CW_MAX_WAYS + 1) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "%llu ways: more than the policy tests "
                 "take (%d)", (unsigned long long)ways, CW_MAX_WAYS);
        return 0;
    }
    for (uint64_t i = 0; i <= ways; i++)
        group[i] = i * span;
    lv->policy = GS_POLICY_UNKNOWN;
    lv->why_policy[0] = 0;
    rc = cw_infer_policy(w, lv, group, (size_t)ways + 1, 0, err);
    return rc;
}

/* ---- masks for a hashed index the fine-grained walks found ----------------------------------- */

int cw_hashed_masks(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, gs_error *err)
{
    uint64_t line = lv->line_bytes;
    uint64_t ways = lv->nsets && gs_ways_equal(lv->ways_per_set, lv->nsets) ? lv->ways_per_set[0]
                                                                            : 0;
    char why[400] = "";
    if (lv->mapping != CW_MAP_HASHED || w->tlb || !line || !ways || !lv->sets)
        return 0;
    if (lv->sets & (lv->sets - 1))
        snprintf(why, sizeof why, "%u sets is not a power of two: no XOR (linear) function of "
                 "address bits indexes them", lv->sets);
    else if (m != ways + 1 || m > CW_MAX_WAYS + 1)
        snprintf(why, sizeof why, "the overflowing set gave %zu blocks, not ways + 1 = %llu",
                 m, (unsigned long long)(ways + 1));
    double hit = NAN, all = NAN;
    int rc = 0;
    if (!why[0] && (rc = cw_avg_offsets(w, set + 1, m - 1, &hit, err)) == 0)
        rc = cw_avg_offsets(w, set, m, &all, err);
    if (rc)
        return rc;
    if (!why[0] && !(all > hit * (1 + AVG_TOLERANCE)))
        snprintf(why, sizeof why, "the set's ways + 1 blocks averaged %.1f cycles against %.1f "
                 "for its ways: the walks that judge a line in the set see no miss", all, hit);
    cw_level t = *lv;              /* the walks' verdicts; lv keeps its figures unless they fit */
    t.mapping = CW_MAP_NONE;
    t.why_structure[0] = 0;
    walk_in_set_ctx walks = {.w = w, .hit = hit};
    if (!why[0])
        rc = cw_xor_index(w, &t, set, m, line, NULL, 0, walk_in_set, &walks, err);
    if (!rc && !why[0] && t.mapping == CW_MAP_NONE)
        rc = cw_xor_members(w, &t, set, m, line, cw_xor_top_bit(w, lv->size_bytes), why,
                            sizeof why, err);
    if (rc)
        return rc;
    if (t.mapping == CW_MAP_XOR && (1ull << t.nxor) == lv->sets) {
        lv->mapping = CW_MAP_XOR;
        lv->nxor = t.nxor;
        memcpy(lv->xor_masks, t.xor_masks, t.nxor * sizeof *t.xor_masks);
        snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf, "%s; the set is the one "
                 "that overflowed past capacity in the fine-grained walks", t.mapping_method);
    } else if (t.mapping == CW_MAP_BITS && (1ull << t.nindex) == lv->sets) {
        lv->mapping = CW_MAP_BITS;
        lv->nindex = t.nindex;
        memcpy(lv->index_bits, t.index_bits, t.nindex * sizeof *t.index_bits);
        snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf, "%s",
                 t.mapping_method);
    } else {
        snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf, "set-index bits are not "
                 "a plain bit selection; XOR masks not determined: %.300s",
                 why[0] ? why : t.why_structure[0] ? t.why_structure + (t.why_structure[0] == ';'
                                                                        ? 2 : 0)
                                                    : "the masks made another set count");
    }
    lv->mapping_method = lv->mapping_method_buf;
    return 0;
}
