/* The set index as XOR masks from many lines of one set (docs/methods.md, "cache", "XOR index
 * from members"): where moving a line of a set by one or two address bits never keeps
 * it in the set (every index mask weighs three bits or more, as on the H100's L1), lines of the
 * set are found instead, by group testing random lines against the set's other ways, until their
 * differences span the set's whole affine subspace; the masks are the null space of that span
 * (analysis/gf2.h). Every line of a batch that left the set is a line the masks must put
 * elsewhere, and held-out lines check the fit before it is reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gf2.h"
#include "probes/cache/internal.h"

#define XM_MAX_BATCH 32     /* candidate lines walked with the set's other ways at once */
#define XM_MAX_WALKS 1500   /* walks of the whole search, at most */
#define XM_MAX_MEMBERS 64   /* lines of the set found, at most */
#define XM_STABLE 10        /* members in a row that add no dimension: the span is complete (a
                               span one short lets a member add nothing with chance 1/2 each) */
#define XM_MAX_LEFT 16384   /* lines that left the set, kept to check the masks against */
#define XM_HELD_OUT 16      /* held-out lines of each kind (predicted in the set, random) */

typedef struct xm {
    cw_walker *w;
    const uint64_t *set;    /* ways + 1 lines of one set */
    size_t m;
    uint64_t line, lines;   /* candidates: line x [0, lines) */
    double base, step;      /* a walk of set[1..m) and n candidates averages base when all hit;
                               one candidate in the set adds at least step / (m - 1 + n) */
    unsigned walks;
    cw_bands bands;         /* single-candidate walks judged in and out */
    uint64_t *left;         /* lines that left the set */
    size_t nleft;
    uint64_t *members;      /* lines of the set: set[0..m) and those found */
    size_t nmembers;
} xm;

static bool known(const xm *c, uint64_t x, const uint64_t *batch, size_t n)
{
    for (size_t i = 0; i < c->nmembers; i++)
        if (c->members[i] == x)
            return true;
    for (size_t i = 0; i < n; i++)
        if (batch[i] == x)
            return true;
    return false;
}

/* Walk set[1..m) with cand[0..n): *yes when the average exceeds base by half of what one
 * candidate in the set adds. */
static int walk_with(xm *c, const uint64_t *cand, size_t n, bool *yes, double *avg,
                     gs_error *err)
{
    uint64_t t[CW_MAX_WAYS + XM_MAX_BATCH];
    memcpy(t, c->set + 1, (c->m - 1) * sizeof *t);
    memcpy(t + c->m - 1, cand, n * sizeof *t);
    c->walks++;
    int rc = cw_avg_offsets(c->w, t, c->m - 1 + n, avg, err);
    *yes = !rc && *avg > c->base + c->step / (2.0 * (double)(c->m - 1 + n));
    return rc;
}

/* One candidate, with its walk's average kept in the band of its verdict. */
static int single(xm *c, uint64_t x, bool *yes, gs_error *err)
{
    double avg;
    int rc = walk_with(c, &x, 1, yes, &avg, err);
    if (!rc)
        cw_bands_add(&c->bands, *yes, avg);
    return rc;
}

static void keep_left(xm *c, const uint64_t *x, size_t n)
{
    for (size_t i = 0; i < n && c->nleft < XM_MAX_LEFT; i++)
        c->left[c->nleft++] = x[i];
}

/* Rank of the differences of the members from set[0]. */
static size_t span_rank(const xm *c)
{
    uint64_t v[XM_MAX_MEMBERS];
    for (size_t i = 1; i < c->nmembers; i++)
        v[i - 1] = c->members[i] ^ c->members[0];
    return gs_gf2_reduce(v, c->nmembers - 1);
}

/* A batch that holds a line of the set: halve it until one line is left, the halves that hit
 * kept as lines that left; that line joins the members if its own walk misses. */
static int find_member(xm *c, uint64_t *batch, size_t n, bool *found, gs_error *err)
{
    size_t lo = 0, hi = n;
    int rc = 0;
    *found = false;
    while (!rc && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        bool yes;
        double avg;
        rc = walk_with(c, batch + lo, mid - lo, &yes, &avg, err);
        if (!rc && yes)
            hi = mid;
        else if (!rc)
            keep_left(c, batch + lo, mid - lo), lo = mid;
    }
    bool yes = false;
    if (!rc)
        rc = single(c, batch[lo], &yes, err);
    if (!rc && yes) {
        c->members[c->nmembers++] = batch[lo];
        *found = true;
    }
    return rc;
}

/* Members until the span has not grown for XM_STABLE of them (or the walks run out). */
static int collect(xm *c, size_t batch_n, bool *complete, gs_error *err)
{
    uint64_t batch[XM_MAX_BATCH];
    size_t rank = span_rank(c), stable = 0;
    int rc = 0;
    while (!rc && stable < XM_STABLE && c->nmembers < XM_MAX_MEMBERS &&
           c->walks < XM_MAX_WALKS) {
        for (size_t i = 0; i < batch_n; i++) {
            uint64_t x;
            do
                x = gs_rng_below(&c->w->rng, c->lines) * c->line;
            while (known(c, x, batch, i));
            batch[i] = x;
        }
        bool yes, found;
        double avg;
        rc = walk_with(c, batch, batch_n, &yes, &avg, err);
        if (rc || !yes) {
            keep_left(c, batch, batch_n);
            continue;
        }
        rc = find_member(c, batch, batch_n, &found, err);
        if (!rc && found) {
            size_t r = span_rank(c);
            stable = r > rank ? 0 : stable + 1;
            rank = r;
        }
    }
    *complete = stable >= XM_STABLE;
    return rc;
}

/* Held-out lines: XM_HELD_OUT the masks put in the set (set[0] moved by random sums of member
 * differences) and XM_HELD_OUT random lines; how many the walks contradict. */
static int held_out(xm *c, const uint64_t *masks, size_t k, size_t *wrong, gs_error *err)
{
    uint64_t home = gs_gf2_index(masks, k, c->set[0]);
    int rc = 0;
    *wrong = 0;
    for (int i = 0; i < 2 * XM_HELD_OUT && !rc; i++) {
        uint64_t x = c->set[0];
        for (int tries = 0; tries < 64 && known(c, x, NULL, 0); tries++) {
            x = c->set[0];
            if (i < XM_HELD_OUT)
                for (size_t j = 1; j < c->nmembers; j++)
                    x ^= gs_rng_below(&c->w->rng, 2) ? c->members[j] ^ c->members[0] : 0;
            else
                x = gs_rng_below(&c->w->rng, c->lines) * c->line;
        }
        if (known(c, x, NULL, 0))
            continue;                 /* the span holds no line not walked yet */
        bool yes;
        rc = single(c, x, &yes, err);
        *wrong += !rc && yes != (gs_gf2_index(masks, k, x) == home);
    }
    return rc;
}

int cw_xor_members(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, uint64_t line,
                   unsigned top, char *why, size_t why_size, gs_error *err)
{
    xm c = {.w = w, .set = set, .m = m, .line = line, .lines = (2ull << top) / line};
    double all;
    why[0] = 0;
    int rc = cw_avg_offsets(w, set + 1, m - 1, &c.base, err);
    if (!rc)
        rc = cw_avg_offsets(w, set, m, &all, err);
    if (rc)
        return rc;
    c.step = (all - c.base) * (double)m;
    /* one candidate in the set must lift a walk well clear of the noise: 5 % of the hits */
    double batch = floor(c.step / (0.1 * c.base)) - (double)(m - 1);
    if (!(batch >= 1)) {
        snprintf(why, why_size, "the set's own walk misses too little (%.1f cycles against "
                 "%.1f) to find more of its lines", all, c.base);
        return 0;
    }
    size_t batch_n = batch > XM_MAX_BATCH ? XM_MAX_BATCH : (size_t)batch;
    c.left = malloc(XM_MAX_LEFT * sizeof *c.left);
    c.members = malloc(XM_MAX_MEMBERS * sizeof *c.members);
    if (!c.left || !c.members) {
        free(c.left), free(c.members);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    }
    memcpy(c.members, set, m * sizeof *set);
    c.nmembers = m;
    bool complete = false;
    rc = collect(&c, batch_n, &complete, err);
    uint64_t bits = ((2ull << top) - 1) & ~(line - 1), masks[GS_GF2_MAX_MASKS];
    uint64_t diff[XM_MAX_MEMBERS];
    for (size_t i = 1; i < c.nmembers; i++)
        diff[i - 1] = c.members[i] ^ c.members[0];
    size_t k = rc ? 0 : gs_gf2_null_space(diff, c.nmembers - 1, bits, masks, GS_GF2_MAX_MASKS);
    size_t shared = 0, wrong = 0;
    const cw_bands *b = &c.bands;
    uint64_t home = gs_gf2_index(masks, k, set[0]);
    for (size_t i = 0; !rc && i < c.nleft; i++)
        shared += gs_gf2_index(masks, k, c.left[i]) == home;
    if (rc)
        ;
    else if (!complete)
        snprintf(why, why_size, "%zu lines of one set found in %u walks (batches of %zu random "
                 "lines up to bit %u), and their span still grew: too few to solve an XOR index",
                 c.nmembers, c.walks, batch_n, top);
    else if (k == 0 || k > GS_GF2_MAX_MASKS || shared)
        snprintf(why, why_size, "%zu lines of one set span %zu of address bits %u..%u, and of "
                 "%zu lines that left it the %zu masks put %zu in it: no linear index of these "
                 "bits", c.nmembers, span_rank(&c), log2_floor(line), top, c.nleft, k, shared);
    else if ((rc = held_out(&c, masks, k, &wrong, err)) != 0)
        ;
    else if (wrong)
        snprintf(why, why_size, "XOR masks from %zu lines of one set mispredict %zu of %d "
                 "held-out lines: no linear index of bits %u..%u", c.nmembers, wrong,
                 2 * XM_HELD_OUT, log2_floor(line), top);
    else if (!gs_gf2_bands_apart(b->yes_lo, b->yes_hi, b->yes_n, b->no_lo, b->no_hi, b->no_n))
        snprintf(why, why_size, "the walks that put a line in the set (%zu, %.1f-%.1f cycles) "
                 "and out of it (%zu, %.1f-%.1f) are not apart by twice the wider band's "
                 "spread: the XOR fit from %zu lines of one set is within the noise", b->yes_n,
                 b->yes_lo, b->yes_hi, b->no_n, b->no_lo, b->no_hi, c.nmembers);
    else {
        lv->mapping = CW_MAP_XOR;
        lv->nxor = k;
        memcpy(lv->xor_masks, masks, k * sizeof *masks);
        snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf,
                 "set index bit i = parity(address & mask i), masks over GF(2): the null space "
                 "of the differences of %zu lines of one set (found by group tests of random "
                 "lines up to bit %u against the set's other ways, until %d in a row added no "
                 "dimension), checked on the %zu lines that left the set and %d held-out lines",
                 c.nmembers, top, XM_STABLE, c.nleft, 2 * XM_HELD_OUT);
        lv->mapping_method = lv->mapping_method_buf;
    }
    free(c.left), free(c.members);
    return rc;
}
