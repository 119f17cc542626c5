/* Replacement policy (memory-hierarchy paper, section 3.2 (4), Fig. 8) on ways + 1 blocks of one
 * set: eight random sequences from cold compared with the misses LRU, FIFO, tree-PLRU, SRRIP,
 * segmented LRU (each count of protected lines) and segmented LRU over the last hits (each count
 * of hits) predict (SRRIP gives the victims 0, 1/3, 1/3, 1/3 of the H100's L1 in the cyclic
 * walk, SLRU keeps its twice-touched first block), which must predict a cold cyclic walk too;
 * else the victim way of every miss of that walk, and a chi-square test of equal shares (random
 * against weighted, as Fermi's L1) where its misses do not repeat (a deterministic policy
 * outside the candidates is not determined). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/cache/internal.h"

/* Policy chains start with a priming element d in block 0's line and then block 0 itself: the
 * first access of a cold chase may miss a TLB and leave the cache unfilled (Fermi's L1). If block
 * 0 then misses, d did not fill, and the analysis starts at block 0's access; else at d. */
static size_t analysis_start(const cw_walker *w, size_t got)
{
    return got > 1 && w->lat[1] > w->band.threshold_cycles ? 1 : 0;
}

/* A chase of chain (len entries) from cold, record accesses of it (at most the trace's
 * capacity); blocks[i] / miss[i] from the analysis start on, the first of them kept in
 * lv->policy_trace[which] as evidence. */
static int cold_trace(cw_walker *w, cw_level *lv, int which, const uint64_t *chain,
                      const uint32_t *block_of, size_t len, size_t record, uint32_t *blocks,
                      bool *miss, size_t *n, gs_error *err)
{
    size_t got;
    int rc = cw_chase(w, chain, len, 0, record < w->cap ? record : w->cap, &got, err);
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

/* The deterministic candidates whose predicted hits a random sequence is compared with: LRU,
 * FIFO, tree-PLRU, SRRIP, segmented LRU with each count of protected lines (1 .. ways - 1) and
 * segmented LRU over each count of last hits (2 .. ways - 1: over one hit it is SLRU-1), sets of
 * up to CW_SLRU_MAX_WAYS ways. */
typedef struct candidate {
    gs_policy policy;
    unsigned protect;
} candidate;

static const gs_policy base_policies[] = {GS_POLICY_LRU, GS_POLICY_FIFO, GS_POLICY_PLRU,
                                          GS_POLICY_SRRIP};
#define NBASE (sizeof base_policies / sizeof base_policies[0])

static size_t candidates_of(unsigned ways, candidate *c)
{
    size_t n = 0;
    for (size_t i = 0; i < NBASE; i++)
        c[n++] = (candidate){base_policies[i], 0};
    for (unsigned k = 1; ways <= CW_SLRU_MAX_WAYS && k < ways; k++)
        c[n++] = (candidate){GS_POLICY_SLRU, k};
    for (unsigned k = 2; ways <= CW_SLRU_MAX_WAYS && k < ways; k++)
        c[n++] = (candidate){GS_POLICY_HSLRU, k};
    return n;
}

static const char *candidate_name(candidate c, char *buf, size_t len)
{
    if (!gs_policy_segmented(c.policy))
        return gs_policy_name(c.policy);
    snprintf(buf, len, "%s-%u", gs_policy_name(c.policy), c.protect);
    return buf;
}

static double mismatch_of(candidate c, const uint32_t *blocks, const bool *miss, size_t n,
                          unsigned ways)
{
    return gs_policy_mismatch(c.policy, c.protect, blocks, miss, n, ways);
}

/* Repetitions of a protect-then-evict round recorded: the round settles after its first, and
 * each later one that a count mispredicts adds at least one access in len (5 % or more of the
 * trace against a tolerance of 2 % and the spikes), so a few dozen tell the counts apart without
 * a whole trace each. */
#define ROUND_REPS 64

/* A trace from cold: the block of each access and whether it missed. */
typedef struct trace {
    uint32_t *blocks;
    bool *miss;
    size_t n;
} trace;

#define CANDIDATES_TEXT "lru, fifo, plru, srrip, slru-k (k of the ways protected), hslru-k " \
                        "(the lines of the last k hits protected)"

/* Random sequences a candidate must all predict: one sequence is a chain of ways + 1 blocks x r
 * words repeated, so about 30 random accesses decide it; on the H100's L1 segmented LRU with one
 * protected line (as segmented LRU defines its demotion) predicted 59 of 160 card sequences
 * exactly and mispredicted 15 or more accesses of the others, each at one chain position in
 * every period (a rule of the card's that it lacks, not noise): one sequence would name it in
 * about one run of nine (docs/methods.md "Policy"). With eight, a policy that
 * predicts a sequence in three of eight passes all eight once in 2,500 runs. */
#define POLICY_SEQUENCES 8

/* One random sequence over group[0..m) from cold into seq (its blocks and misses; the evidence
 * of lv->policy_trace[0]): a chain of the ways + 1 blocks' r words each in a random order,
 * behind two priming words of block 0. */
static int one_sequence(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m, trace *seq,
                        gs_error *err)
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
    size_t len = 2 + m * r;
    uint32_t *block_of = malloc(len * sizeof *block_of);
    uint32_t *order = malloc(m * r * sizeof *order);
    int rc = order && block_of ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
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
        rc = cold_trace(w, lv, 0, w->chain2, block_of, len, w->cap, seq->blocks, seq->miss,
                        &seq->n, err);
    }
    free(order), free(block_of);
    return rc;
}

/* Each candidate's largest mispredicted share over POLICY_SEQUENCES random sequences
 * (lv->policy_mismatch[0]); *done when one fits them all (to a tolerance for noise): the cyclic
 * walk then decides among them (confirm_on_cyclic), else its victims do (victim_shares). seq
 * keeps the sequence the best candidate mispredicted most (the hardest), and its evidence. */
static int policy_sequence(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                           trace *seq, bool *done, gs_error *err)
{
    candidate cand[CW_POLICY_CANDIDATES];
    unsigned ways = (unsigned)(m - 1);
    size_t ncand = candidates_of(ways, cand);
    double tol = 0.02 + 3 * w->band.outlier_rate, hardest = -1;
    trace one = {malloc(w->cap * sizeof *one.blocks), malloc(w->cap * sizeof *one.miss), 0};
    cw_policy_trace *kept = malloc(sizeof *kept);
    int rc = one.blocks && one.miss && kept ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    for (size_t c = 0; c < ncand; c++)
        lv->policy_mismatch[0][c] = 0;
    for (int k = 0; k < POLICY_SEQUENCES && !rc; k++) {
        rc = one_sequence(w, lv, group, m, &one, err);
        double best = INFINITY;
        for (size_t c = 0; !rc && c < ncand; c++) {
            double mm = mismatch_of(cand[c], one.blocks, one.miss, one.n, ways);
            best = mm < best ? mm : best;
            if (mm > lv->policy_mismatch[0][c])
                lv->policy_mismatch[0][c] = mm;
        }
        if (!rc && best > hardest) {
            hardest = best;
            memcpy(seq->blocks, one.blocks, one.n * sizeof *one.blocks);
            memcpy(seq->miss, one.miss, one.n * sizeof *one.miss);
            seq->n = one.n;
            *kept = lv->policy_trace[0];
        }
    }
    *done = false;
    for (size_t c = 0; !rc && c < ncand; c++)
        *done = *done || lv->policy_mismatch[0][c] <= tol;
    if (!rc)
        lv->policy_trace[0] = *kept;
    lv->policy_n = seq->n;
    lv->policy = GS_POLICY_UNKNOWN;
    free(one.blocks), free(one.miss), free(kept);
    return rc;
}

/* Each candidate's mispredicted share of the cyclic walk, and the list of both traces' shares
 * ("lru 0.0 / 16.7 %, ...") for a reason: the four base policies, then the SLRU count that
 * mispredicts least over both. */
static int mismatch_list(cw_level *lv, const uint32_t *blocks, const bool *miss, size_t n,
                         unsigned ways, char *buf, size_t len)
{
    candidate cand[CW_POLICY_CANDIDATES];
    size_t ncand = candidates_of(ways, cand), slru = 0;
    int k = 0;
    for (size_t c = 0; c < ncand; c++) {
        lv->policy_mismatch[1][c] = mismatch_of(cand[c], blocks, miss, n, ways);
        double sum = lv->policy_mismatch[0][c] + lv->policy_mismatch[1][c];
        if (c >= NBASE && (!slru || !(sum >= lv->policy_mismatch[0][slru] +
                                                lv->policy_mismatch[1][slru])))
            slru = c;
    }
    buf[0] = 0;
    for (size_t c = 0; c < ncand; c++) {
        if (c >= NBASE && c != slru)
            continue;
        char seq[16] = "-", name[16];
        if (!isnan(lv->policy_mismatch[0][c]))
            snprintf(seq, sizeof seq, "%.1f", 100 * lv->policy_mismatch[0][c]);
        if (k >= 0 && (size_t)k < len)
            k += snprintf(buf + k, len - (size_t)k, "%s%s %s / %.1f %%", c ? ", " : "",
                          candidate_name(cand[c], name, sizeof name), seq,
                          100 * lv->policy_mismatch[1][c]);
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
                         "policy), yet none of " CANDIDATES_TEXT " predicts eight random "
                         "sequences and this walk (mispredicted accesses, worst sequence / cyclic "
                         "walk: %s; a policy that predicts them all would decide it); victim "
                         "shares",
                         ways + 1, period, list);
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

/* Do candidates x and y predict the same hits on trace t? */
static bool same_hits(candidate x, candidate y, const trace *t, unsigned ways)
{
    bool *a = malloc(t->n * sizeof *a), *b = malloc(t->n * sizeof *b), same = false;
    if (a && b && gs_policy_predict(x.policy, x.protect, t->blocks, t->n, ways, a) == 0 &&
        gs_policy_predict(y.policy, y.protect, t->blocks, t->n, ways, b) == 0)
        same = memcmp(a, b, t->n * sizeof *a) == 0;
    free(a), free(b);
    return same;
}

/* "a, b or c" of n candidates' names into buf. */
static void list_candidates(const candidate *c, unsigned n, char *buf, size_t len)
{
    size_t at = 0;
    char name[16];
    buf[0] = 0;
    for (unsigned i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s",
                               i == 0 ? "" : i + 1 == n ? " or " : ", ",
                               candidate_name(c[i], name, sizeof name));
}

/* Segmented LRU's kind and count, and a test of segmented LRU itself, once the random sequences
 * and the cyclic walk fit it with each candidate in cand[fits[0..nfit)] (best first; slru-k or
 * hslru-k): round k touches blocks 0 .. k-1 twice each (two words of their first fetch unit: the
 * second touch hits and protects the line) and blocks k .. ways once, behind a priming word of
 * block 0, from cold and repeated. With p < k protected lines the oldest protected ones go back
 * and are evicted before the once-touched ones, so the rounds k = 2 .. ways - 1 tell the counts
 * apart; then the same rounds with three touches each (two hits a line), where segmented LRU
 * over the last p hits protects only the last p / 2 lines (rounded up) and segmented LRU with p
 * protected lines p of them, and rounds of two passes over blocks 0 .. k-1 (one hit a line a
 * pass, once the round has settled), where the last hits are k lines again: two touches alone
 * left slru-3, hslru-5 and hslru-6 on a 16-way model, three touches hslru-5 and hslru-6, and
 * slru-1 and hslru-2 on 8 and 16 ways (each touch after the first hits in every settled
 * repetition, so the last two hits are one line's); with the passes every pair of candidates
 * up to 16 ways differs at least once a repetition (an offline check of the two predictors). A
 * round that splits none of several remaining candidates is skipped; with one left every round
 * still runs, as a test it must pass. A candidate stays while its predicted misses equal the
 * observed ones (to the tolerance). One left: lv->policy and lv->policy_protect; several:
 * lv->why_protect; none: segmented LRU is refuted and the policy is not determined
 * (lv->why_policy). The last round run is kept as evidence (policy_trace[2]). */
static int pick_protect(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                        const candidate *cand, const size_t *fits, size_t nfit, gs_error *err)
{
    unsigned ways = (unsigned)(m - 1), nkeep = 0, rounds = 0;
    candidate keep[CW_POLICY_CANDIDATES];
    size_t words = lv->fetch_bytes >= 3 * w->elem ? lv->fetch_bytes / w->elem : 0;
    char names[160];
    for (size_t i = 0; i < nfit; i++)
        keep[nkeep++] = cand[fits[i]];
    list_candidates(keep, nkeep, names, sizeof names);
    double tol = 0.02 + 3 * w->band.outlier_rate, refuted = NAN;
    unsigned refuted_k = 0;
    uint32_t *blocks = malloc(w->cap * sizeof *blocks);
    uint32_t *block_of = malloc(4 * m * sizeof *block_of);
    bool *miss = malloc(w->cap * sizeof *miss);
    int rc = blocks && miss && block_of ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    for (unsigned r = 0; !rc && !w->tlb && words && nkeep > 0 && r < 3 * ways; r++) {
        unsigned k = r % ways, kind = r / ways, touches = kind == 1 ? 3 : 2;
        if (k < 2 || touches >= words)
            continue;
        size_t len = 0, n = 0;
        w->chain2[len] = group[0] + touches * w->elem;            /* priming word */
        block_of[len++] = 0;
        for (unsigned b = 0; kind == 2 && b < 2 * k; b++) {       /* two passes over 0 .. k-1 */
            w->chain2[len] = group[b % k] + (b / k) * w->elem;
            block_of[len++] = b % k;
        }
        for (unsigned b = kind == 2 ? k : 0; b <= ways; b++)
            for (unsigned t = 0; t < (b < k ? touches : 1u); t++) {
                w->chain2[len] = group[b] + t * w->elem;
                block_of[len++] = b;
            }
        /* with several candidates left, skip a round whose predictions agree for all of them
         * (from a copy of the chain long enough that the repetitions settle) */
        trace copy = {blocks, NULL, w->cap / len * len};
        for (size_t i = 0; i < copy.n; i++)
            blocks[i] = block_of[i % len];
        bool split = nkeep == 1;
        for (unsigned i = 1; !split && i < nkeep; i++)
            split = !same_hits(keep[0], keep[i], &copy, ways);
        if (!split)
            continue;
        rc = cold_trace(w, lv, 2, w->chain2, block_of, len, ROUND_REPS * len, blocks, miss, &n,
                        err);
        rounds++;
        unsigned left = 0;
        for (unsigned i = 0; !rc && i < nkeep; i++) {
            double mm = mismatch_of(keep[i], blocks, miss, n, ways);
            if (mm <= tol)
                keep[left++] = keep[i];
            else if (!(mm >= refuted))
                refuted = mm, refuted_k = k;
        }
        if (!rc)
            nkeep = left;
    }
    free(blocks), free(miss), free(block_of);
    lv->policy = nkeep == 1 ? keep[0].policy : GS_POLICY_UNKNOWN;
    lv->policy_protect = nkeep == 1 ? keep[0].protect : 0;
    if (rc || nkeep == 1) {
        char one[16];
        snprintf(lv->protect_method, sizeof lv->protect_method, "the one count whose segmented "
                 "LRU (%s) predicts eight random sequences, the cyclic walk and %u "
                 "protect-then-evict rounds", candidate_name(keep[0], one, sizeof one), rounds);
        return rc;
    }
    if (nkeep == 0) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "segmented LRU (%s) predicts eight "
                 "random sequences over %u blocks of one set and a cyclic walk over them (no "
                 "other candidate predicts both), but not the protect-then-evict rounds (round "
                 "%u: %.1f %% of its accesses mispredicted at best; tolerance %.1f %%; the "
                 "round's trace is series policy_round_*; a policy that predicts every trace of "
                 "the record within the tolerance would decide it)", names, ways + 1, refuted_k,
                 100 * refuted, 100 * tol);
        return 0;
    }
    bool one_kind = true;
    for (unsigned i = 1; i < nkeep; i++)
        one_kind = one_kind && keep[i].policy == keep[0].policy;
    lv->policy = one_kind ? keep[0].policy : GS_POLICY_UNKNOWN;
    list_candidates(keep, nkeep, names, sizeof names);
    snprintf(one_kind ? lv->why_protect : lv->why_policy,
             one_kind ? sizeof lv->why_protect : sizeof lv->why_policy,
             "segmented LRU as %s predicts both traces%s", names, w->tlb ? " (a TLB's entries "
             "have no second word to protect them with)" : !words ? " (a fetch unit of fewer "
             "than three words leaves the protect-then-evict rounds no words)" : " and every "
             "protect-then-evict round");
    return 0;
}

/* A policy must predict the random sequences and the cyclic walk, or it is not the one: on
 * the H100 one sequence of three matched LRU while LRU mispredicted a sixth of the cyclic walk.
 * Of the candidates that fit both (to the noise tolerance), the fewest mispredictions over both
 * win; another that fits both, predicts either trace differently and is not clearly worse (3
 * sigma, Poisson) leaves them not told apart, unless all that fit are segmented LRU (the policy
 * stands; protect-then-evict rounds pick its protected count). */
static int confirm_on_cyclic(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                             const trace *seq, const trace *walk, gs_error *err)
{
    unsigned ways = (unsigned)(m - 1);
    char list[320], na[16], nb[16];
    candidate cand[CW_POLICY_CANDIDATES];
    size_t ncand = candidates_of(ways, cand), fits[CW_POLICY_CANDIDATES], nfit = 0, nslru = 0;
    mismatch_list(lv, walk->blocks, walk->miss, walk->n, ways, list, sizeof list);
    double tol = 0.02 + 3 * w->band.outlier_rate, wrong[CW_POLICY_CANDIDATES];
    for (size_t c = 0; c < ncand; c++) {
        wrong[c] = lv->policy_mismatch[0][c] * (double)seq->n +
                   lv->policy_mismatch[1][c] * (double)walk->n;
        if (lv->policy_mismatch[0][c] > tol || lv->policy_mismatch[1][c] > tol)
            continue;
        size_t at = nfit++;                            /* fewest mispredictions first (stable) */
        while (at > 0 && wrong[c] < wrong[fits[at - 1]]) {
            fits[at] = fits[at - 1];
            at--;
        }
        fits[at] = c;
        nslru += gs_policy_segmented(cand[c].policy);
    }
    lv->policy = GS_POLICY_UNKNOWN;
    if (nfit == 0) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "no candidate predicts both eight "
                 "random sequences over %u blocks of one set and a cyclic walk over them "
                 "(mispredicted accesses, worst sequence / cyclic walk: %s; tolerance %.1f %%)", ways + 1, list,
                 100 * tol);
        return 0;
    }
    if (nslru == nfit) {
        lv->policy_method = "eight random sequences over ways + 1 blocks of one set, from cold, "
                            "a cyclic walk over them and protect-then-evict rounds: observed "
                            "misses equal the predicted misses of this segmented LRU in all, and "
                            "of no other of " CANDIDATES_TEXT;
        return pick_protect(w, lv, group, m, cand, fits, nslru, err);
    }
    candidate best = cand[fits[0]];
    for (size_t i = 1; i < nfit; i++) {
        candidate c = cand[fits[i]];
        double worse = wrong[fits[i]] - wrong[fits[0]];
        if (worse > 3 * sqrt(wrong[fits[0]] + 1) + 3 ||
            (same_hits(best, c, seq, ways) && same_hits(best, c, walk, ways)))
            continue;               /* clearly worse, or one policy on these traces */
        snprintf(lv->why_policy, sizeof lv->why_policy, "%s and %s both predict eight random "
                 "sequences over %u blocks of one set and a cyclic walk over them (mispredicted "
                 "accesses, worst sequence / cyclic walk: %s; tolerance %.1f %%) yet differ on them: "
                 "not told apart", candidate_name(best, na, sizeof na),
                 candidate_name(c, nb, sizeof nb), ways + 1, list, 100 * tol);
        return 0;
    }
    lv->policy = best.policy;
    lv->policy_protect = best.protect;
    lv->policy_method = "eight random sequences over ways + 1 blocks of one set, from cold, and "
                        "a cyclic walk over them: observed misses equal the predicted misses of "
                        "one of " CANDIDATES_TEXT " in all";
    return 0;
}

static int policy_cyclic(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                         unsigned depth, const trace *seq, bool confirm, gs_error *err)
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
        rc = cold_trace(w, lv, 1, w->chain2, block_of, len, w->cap, blocks, miss, &n, err);
    }
    unsigned ways = (unsigned)(m - 1);
    double tol = 0.02 + 3 * w->band.outlier_rate;
    if (!rc && confirm) {
        trace walk = {blocks, miss, n};
        rc = confirm_on_cyclic(w, lv, group, m, seq, &walk, err);
    } else if (!rc && depth > 0 &&
               gs_policy_mismatch(GS_POLICY_LRU, 0, blocks, miss, n, ways) <= tol) {
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
        for (size_t c = 0; c < CW_POLICY_CANDIDATES; c++)
            lv->policy_mismatch[t][c] = NAN;
    lv->policy_protect = 0;
    lv->why_protect[0] = 0;
    lv->policy_trace[2].n = 0;
    trace seq = {malloc(w->cap * sizeof *seq.blocks), malloc(w->cap * sizeof *seq.miss), 0};
    int rc = seq.blocks && seq.miss ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    if (!rc && depth == 0)
        rc = policy_sequence(w, lv, group, m, &seq, &done, err);
    if (!rc)
        rc = policy_cyclic(w, lv, group, m, depth, &seq, done, err);
    free(seq.blocks), free(seq.miss);
    return rc;
}
