/* Replacement policy (memory-hierarchy paper, section 3.2 (4), Fig. 8) on ways + 1 blocks of one
 * set: a random sequence from cold compared with the misses LRU, FIFO, tree-PLRU and SRRIP
 * predict (SRRIP gives the victims 0, 1/3, 1/3, 1/3 of the H100's L1 in the cyclic walk), which
 * must predict a cold cyclic walk too; else the victim way of every miss of that walk, and a
 * chi-square test of equal shares (random against weighted, as Fermi's L1) where its misses do
 * not repeat (a deterministic policy outside the candidates is not determined). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/cache_internal.h"

/* Policy chains start with a priming element d in block 0's line and then block 0 itself: the
 * first access of a cold chase may miss a TLB and leave the cache unfilled (Fermi's L1). If block
 * 0 then misses, d did not fill, and the analysis starts at block 0's access; else at d. */
static size_t analysis_start(const cw_walker *w, size_t got)
{
    return got > 1 && w->lat[1] > w->band.threshold_cycles ? 1 : 0;
}

/* A chase of chain (len entries) from cold; blocks[i] / miss[i] from the analysis start on, the
 * first of them kept in lv->policy_trace[which] as evidence. */
static int cold_trace(cw_walker *w, cw_level *lv, int which, const uint64_t *chain,
                      const uint32_t *block_of, size_t len, uint32_t *blocks, bool *miss,
                      size_t *n, gs_error *err)
{
    size_t got;
    int rc = cw_chase(w, chain, len, 0, w->cap, &got, err);
    if (rc)
        return rc;
    size_t s = analysis_start(w, got);
    *n = got - s;
    for (size_t i = s; i < got; i++) {
        blocks[i - s] = block_of[i % len];
        miss[i - s] = w->lat[i] > w->band.threshold_cycles;
    }
    size_t keep = *n < CW_POLICY_TRACE ? *n : CW_POLICY_TRACE;
    lv->policy_trace[which].n = keep;
    for (size_t i = 0; i < keep; i++) {
        lv->policy_trace[which].block[i] = (float)blocks[i];
        lv->policy_trace[which].cycles[i] = (float)w->lat[s + i];
    }
    return 0;
}

/* The deterministic candidates whose predicted hits a random sequence is compared with. */
static const gs_policy candidates[] = {GS_POLICY_LRU, GS_POLICY_FIFO, GS_POLICY_PLRU,
                                       GS_POLICY_SRRIP};
#define NCAND (sizeof candidates / sizeof candidates[0])

/* The candidate whose predicted misses the observed ones equal (to a tolerance for noise), the
 * fewest mismatches first: candidates that predict the same hits on this sequence are one policy
 * here (the first named); another that differs yet fits with a mismatch count the best one's
 * does not beat by 3 sigma (Poisson) leaves it not determined (*done true, with why). */
static void pick_predicting(cw_walker *w, cw_level *lv, const uint32_t *blocks, const bool *miss,
                            size_t n, unsigned ways, bool *done)
{
    double tol = 0.02 + 3 * w->band.outlier_rate, mm[NCAND];
    size_t fit[NCAND], nfit = 0;
    for (size_t c = 0; c < NCAND; c++) {
        mm[c] = gs_policy_mismatch(candidates[c], blocks, miss, n, ways);
        lv->policy_mismatch[0][c] = mm[c];
        if (mm[c] <= tol)
            fit[nfit++] = c;
    }
    lv->policy_n = n;
    lv->policy_method = "random sequence over ways + 1 blocks of one set, from cold: observed "
                        "misses equal the predicted misses of one of lru, fifo, plru, srrip";
    for (size_t i = 1; i < nfit; i++)               /* the best first (stable) */
        if (mm[fit[i]] < mm[fit[0]]) {
            size_t t = fit[0];
            fit[0] = fit[i];
            fit[i] = t;
        }
    lv->policy = nfit ? candidates[fit[0]] : GS_POLICY_UNKNOWN;
    *done = nfit > 0;
    bool *a = nfit > 1 ? malloc(n * sizeof *a) : NULL, *b = nfit > 1 ? malloc(n * sizeof *b) : NULL;
    double best = nfit ? mm[fit[0]] * (double)n : 0;
    for (size_t i = 1; a && b && i < nfit; i++) {
        if (mm[fit[i]] * (double)n - best > 3 * sqrt(best + 1) + 3)
            continue;                                  /* clearly worse than the best */
        gs_policy_predict(candidates[fit[0]], blocks, n, ways, a);
        gs_policy_predict(candidates[fit[i]], blocks, n, ways, b);
        if (memcmp(a, b, n * sizeof *a) != 0) {
            lv->policy = GS_POLICY_UNKNOWN;
            snprintf(lv->why_policy, sizeof lv->why_policy, "%s and %s both predict the %zu "
                     "accesses of a random sequence over one set (mismatch %.3f and %.3f) yet "
                     "differ on it: not told apart", gs_policy_name(candidates[fit[0]]),
                     gs_policy_name(candidates[fit[i]]), n, mm[fit[0]], mm[fit[i]]);
            break;
        }
    }
    free(a), free(b);
}

static int policy_sequence(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                           bool *done, gs_error *err)
{
    /* r elements per block (words of its first fetch unit, less the two priming words after
     * them): a chain of m x r random entries, long enough that its repetitions in the trace do
     * not settle two policies into one cycle, yet at most an eighth of the trace */
    size_t r = w->tlb ? 4 : lv->fetch_bytes >= 8 * w->elem ? lv->fetch_bytes / w->elem - 2 : 1;
    r = r > 32 ? 32 : r;
    while (r > 4 && m * r > w->cap / 8)
        r /= 2;
    /* elements of one block: next words (a cache), or words beyond every member's stagger (TLB) */
    uint64_t step = w->tlb ? w->elem * (uint64_t)(4 * m + 4) : w->elem;
    size_t len = 2 + m * r, n = 0;
    uint32_t *blocks = malloc(w->cap * sizeof *blocks), *block_of = malloc(len * sizeof *block_of);
    bool *miss = malloc(w->cap * sizeof *miss);
    uint32_t *order = malloc(m * r * sizeof *order);
    int rc = blocks && miss && order && block_of ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < m * r && !rc; i++)
        order[i] = (uint32_t)i;
    for (size_t i = m * r - 1; i > 0 && !rc; i--) {           /* Fisher-Yates */
        size_t j = gs_rng_below(&w->rng, i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (!rc) {
        w->chain2[0] = group[0] + r * step;                    /* priming element d */
        w->chain2[1] = group[0] + r * step + w->elem;
        block_of[0] = block_of[1] = 0;
        for (size_t i = 0; i < m * r; i++) {
            w->chain2[2 + i] = group[order[i] / r] + (order[i] % r) * step;
            block_of[2 + i] = order[i] / (uint32_t)r;
        }
        rc = cold_trace(w, lv, 0, w->chain2, block_of, len, blocks, miss, &n, err);
    }
    if (!rc)
        pick_predicting(w, lv, blocks, miss, n, (unsigned)(m - 1), done);
    free(blocks), free(miss), free(order), free(block_of);
    return rc;
}

/* Each candidate's mispredicted share of the cyclic walk, and the list of both traces' shares
 * ("lru 0.0 / 16.7 %, ...") for a reason. */
static int mismatch_list(cw_level *lv, const uint32_t *blocks, const bool *miss, size_t n,
                         unsigned ways, char *buf, size_t len)
{
    int k = 0;
    for (size_t c = 0; c < NCAND; c++) {
        lv->policy_mismatch[1][c] = gs_policy_mismatch(candidates[c], blocks, miss, n, ways);
        char seq[16] = "-";
        if (!isnan(lv->policy_mismatch[0][c]))
            snprintf(seq, sizeof seq, "%.1f", 100 * lv->policy_mismatch[0][c]);
        if (k >= 0 && (size_t)k < len)
            k += snprintf(buf + k, len - (size_t)k, "%s%s %s / %.1f %%", c ? ", " : "",
                          gs_policy_name(candidates[c]), seq, 100 * lv->policy_mismatch[1][c]);
    }
    return k;
}

/* Victim shares of a cyclic walk name a random policy (equal shares) or a weighted one, but only
 * when the misses do not repeat: a deterministic policy none of the candidates predicts also
 * leaves unequal shares (the H100's L1: 0, 1/3, 1/3, 1/3, with LRU matching one random sequence
 * of three), and calling it weighted would be wrong. */
static void victim_shares(cw_walker *w, cw_level *lv, const uint32_t *blocks, const bool *miss,
                          size_t n, unsigned ways)
{
    uint64_t counts[CW_MAX_WAYS];
    long v = gs_victim_way_counts(blocks, miss, n, ways, counts);
    if (v < 20 * (long)ways) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "%ld victims seen in %zu accesses: too "
                 "few to estimate %u way probabilities", v, n, ways);
        return;
    }
    size_t period = gs_miss_period(miss, n, 8 * (ways + 1), 0.02 + 3 * w->band.outlier_rate);
    if (period) {
        char list[256];
        mismatch_list(lv, blocks, miss, n, ways, list, sizeof list);
        int k = snprintf(lv->why_policy, sizeof lv->why_policy, "the misses of a cyclic walk "
                         "over %u blocks of one set repeat every %zu accesses (a deterministic "
                         "policy), yet none of lru, fifo, plru, srrip predicts a random "
                         "sequence and this walk (mispredicted accesses, sequence / cyclic walk: "
                         "%s); victim shares", ways + 1, period, list);
        for (unsigned i = 0; i < ways && k > 0 && (size_t)k < sizeof lv->why_policy; i++)
            k += snprintf(lv->why_policy + k, sizeof lv->why_policy - (size_t)k, "%s%.3f",
                          i ? ", " : " ", (double)counts[i] / (double)v);
        return;
    }
    for (unsigned i = 0; i < ways; i++)
        lv->way_probabilities[i] = (double)counts[i] / (double)v;
    lv->nprob = ways;
    lv->policy_n = (size_t)v;
    lv->policy = gs_counts_uniform(counts, ways) ? GS_POLICY_RANDOM : GS_POLICY_WEIGHTED;
    lv->policy_method = "victim way of every miss of a cyclic walk over ways + 1 blocks of one "
                        "set (Fig. 8), whose misses do not repeat; chi-square test of equal "
                        "shares";
}

/* A policy must predict the random sequence and the cyclic walk both, or it is not the one: on
 * the H100 one sequence of three matched LRU while LRU mispredicted a sixth of the cyclic walk.
 * Of the candidates that fit both (to the noise tolerance), the fewest mispredictions over both
 * win; two that fit both yet predict the traces differently are not told apart. */
static void confirm_on_cyclic(cw_walker *w, cw_level *lv, const uint32_t *blocks, const bool *miss,
                              size_t n, unsigned ways)
{
    char list[256];
    mismatch_list(lv, blocks, miss, n, ways, list, sizeof list);
    double tol = 0.02 + 3 * w->band.outlier_rate;
    int best = -1, both = 0;
    for (size_t c = 0; c < NCAND; c++) {
        if (lv->policy_mismatch[0][c] > tol || lv->policy_mismatch[1][c] > tol)
            continue;
        both++;
        if (best < 0 || lv->policy_mismatch[0][c] + lv->policy_mismatch[1][c] <
                            lv->policy_mismatch[0][best] + lv->policy_mismatch[1][best])
            best = (int)c;
    }
    /* The sequence left two candidates not told apart and the walk does not either: its reason
     * stands. (Candidates whose predictions were equal on the sequence kept its choice.) */
    if (both > 1 && lv->policy == GS_POLICY_UNKNOWN)
        return;
    if (both > 1)
        for (size_t c = 0; c < NCAND; c++)
            if (candidates[c] == lv->policy && lv->policy_mismatch[1][c] <= tol)
                best = (int)c;
    if (best >= 0) {
        lv->policy = candidates[best];
        lv->policy_method = "random sequence over ways + 1 blocks of one set, from cold, and a "
                            "cyclic walk over them: observed misses equal the predicted misses "
                            "of one of lru, fifo, plru, srrip in both";
        return;
    }
    snprintf(lv->why_policy, sizeof lv->why_policy, "no candidate predicts both a random sequence "
             "over %u blocks of one set and a cyclic walk over them (mispredicted accesses, "
             "sequence / cyclic walk: %s; tolerance %.1f %%)", ways + 1, list, 100 * tol);
    lv->policy = GS_POLICY_UNKNOWN;
}

static int policy_cyclic(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                         unsigned depth, bool confirm, gs_error *err)
{
    size_t len = 0, n = 0;
    uint32_t *blocks = malloc(w->cap * sizeof *blocks);
    uint32_t *block_of = malloc(w->cap * sizeof *block_of);
    bool *miss = malloc(w->cap * sizeof *miss);
    int rc = blocks && miss && block_of ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    if (!rc) {
        w->chain2[0] = group[0] + (w->tlb ? (4 * m + 4) * w->elem : w->elem);  /* priming d */
        block_of[0] = 0;
        len = 1 + cw_with_fillers(w, group, m, w->chain2 + 1, block_of + 1);
        rc = cold_trace(w, lv, 1, w->chain2, block_of, len, blocks, miss, &n, err);
    }
    unsigned ways = (unsigned)(m - 1);
    double tol = 0.02 + 3 * w->band.outlier_rate;
    if (!rc && confirm) {
        confirm_on_cyclic(w, lv, blocks, miss, n, ways);
    } else if (!rc && depth > 0 &&
               gs_policy_mismatch(GS_POLICY_LRU, blocks, miss, n, ways) <= tol) {
        lv->policy = GS_POLICY_LRU;
        lv->policy_n = n;
        lv->policy_method = "cyclic walk over ways + 1 blocks of one set behind a level that "
                            "filters re-use: every access misses, as LRU predicts (FIFO would "
                            "too)";
    } else if (!rc) {
        victim_shares(w, lv, blocks, miss, n, ways);
    }
    free(blocks), free(miss), free(block_of);
    return rc;
}

int cw_infer_policy(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                    unsigned depth, gs_error *err)
{
    if (m < 2 || m - 1 > CW_MAX_WAYS || m * 4 > w->cap / 2) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "%zu blocks in the conflicting set: "
                 "the tests need 2 to %d and a trace holding 8 passes", m, CW_MAX_WAYS + 1);
        return 0;
    }
    bool done = false;
    for (int t = 0; t < 2; t++)
        for (size_t c = 0; c < NCAND; c++)
            lv->policy_mismatch[t][c] = NAN;
    int rc = depth == 0 ? policy_sequence(w, lv, group, m, &done, err) : 0;
    if (!rc)
        rc = policy_cyclic(w, lv, group, m, depth, done, err);
    return rc;
}
