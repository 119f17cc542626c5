/* Tests of the cache-structure inference (src/analysis/cache_infer.c) on synthetic traces whose
 * answer is known: hit bands with jitter and spikes, conflict verdicts, fetch granularity, set
 * sizes from overflow steps (equal sets, the 17 + 6 x 8 L2 TLB of Fig. 10), policies predicted by
 * hand, and victim-way shares of Fermi's weighted L1 (Fig. 8) against a random policy. Edge cases:
 * empty trace, one sample, all equal, NaN band. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache_infer.h"
#include "util/rng.h"

/* ---- hit band and conflicts ------------------------------------------------------------------- */

static void band_of_equal_and_jittered_hits(void **state)
{
    (void)state;
    uint32_t lat[200];
    gs_hit_band b;
    for (int i = 0; i < 200; i++)
        lat[i] = 100;
    assert_int_equal(gs_hit_band_from_trace(lat, 200, &b), 0);
    assert_true(b.hit_cycles == 100);
    assert_true(b.threshold_cycles == 102);        /* width at least 2 cycles */
    assert_true(b.fast_cycles == 100);
    assert_true(fabs(b.outlier_rate - 3.96 / 200) < 1e-9);    /* (0 + 1.96 + 2) / n */
    gs_rng r;
    gs_rng_seed(&r, 1);
    for (int i = 0; i < 200; i++)
        lat[i] = 100 + (uint32_t)gs_rng_below(&r, 9);      /* jitter 0..8 */
    lat[17] = 900;                                           /* one spike */
    assert_int_equal(gs_hit_band_from_trace(lat, 200, &b), 0);
    assert_true(b.threshold_cycles > 108 && b.threshold_cycles < 125);
    assert_true(b.fast_cycles == 100);                         /* 1st percentile */
    assert_true(fabs(b.outlier_rate - (3 + 1.96 * sqrt(2)) / 200) < 1e-9);
}

static void band_needs_samples(void **state)
{
    (void)state;
    uint32_t lat[1] = {5};
    gs_hit_band b;
    assert_int_equal(gs_hit_band_from_trace(lat, 1, &b), -1);
    assert_true(isnan(b.threshold_cycles));
    assert_int_equal(gs_hit_band_from_trace(NULL, 0, &b), -1);
    /* a NaN band never claims a conflict */
    assert_false(gs_trace_conflict(lat, 1, 1, &b));
}

/* A trace of `passes` passes over len positions, hits 100 +- jitter, misses 400 at the listed
 * positions in every pass. */
static void make_trace(uint32_t *lat, size_t len, size_t passes, const size_t *miss, size_t m,
                       gs_rng *r)
{
    for (size_t i = 0; i < len * passes; i++)
        lat[i] = 100 + (uint32_t)gs_rng_below(r, 5);
    for (size_t p = 0; p < passes; p++)
        for (size_t k = 0; k < m; k++)
            lat[p * len + miss[k]] = 400 + (uint32_t)gs_rng_below(r, 5);
}

static void conflicts_repeat_and_spikes_do_not(void **state)
{
    (void)state;
    enum { LEN = 129, PASSES = 8 };
    uint32_t lat[LEN * PASSES];
    gs_rng r;
    gs_rng_seed(&r, 2);
    gs_hit_band b = {.hit_cycles = 102, .threshold_cycles = 110, .outlier_rate = 0.002, .n = 500};
    make_trace(lat, LEN, PASSES, NULL, 0, &r);
    assert_false(gs_trace_conflict(lat, LEN * PASSES, LEN, &b));
    lat[5] = 5000;                                 /* one spike: noise, not a conflict */
    assert_false(gs_trace_conflict(lat, LEN * PASSES, LEN, &b));
    size_t miss[5] = {0, 32, 64, 96, 128};         /* one set of 4 ways overflowing */
    make_trace(lat, LEN, PASSES, miss, 5, &r);
    assert_true(gs_trace_conflict(lat, LEN * PASSES, LEN, &b));
    size_t pos[LEN];
    assert_int_equal(gs_trace_missing_positions(lat, LEN * PASSES, LEN, 110, 2, pos), 5);
    assert_int_equal(pos[4], 128);
    double ml = gs_trace_miss_latency(lat, LEN * PASSES, 110);
    assert_true(ml >= 400 && ml <= 404);
    assert_false(gs_trace_conflict(lat, 0, LEN, &b));           /* empty trace */
}

/* Two traces: spikes land on different positions each time and are not confirmed; a set that
 * overflows misses on the same positions in both. */
static void second_trace_confirms(void **state)
{
    (void)state;
    enum { LEN = 200, PASSES = 3 };
    uint32_t a[LEN * PASSES], b[LEN * PASSES];
    gs_rng r;
    gs_rng_seed(&r, 4);
    gs_hit_band band = {.hit_cycles = 102, .threshold_cycles = 110, .outlier_rate = 0.0005,
                        .n = 4096};
    make_trace(a, LEN, PASSES, NULL, 0, &r);
    make_trace(b, LEN, PASSES, NULL, 0, &r);
    a[7] = a[LEN + 7] = 900;                  /* two spikes on one position: looks systematic */
    b[50] = 900;                              /* elsewhere the second time */
    assert_true(gs_trace_conflict(a, LEN * PASSES, LEN, &band));
    assert_false(gs_trace_conflict_confirmed(a, LEN * PASSES, b, LEN * PASSES, LEN, &band));
    size_t miss[3] = {10, 60, 110};
    make_trace(a, LEN, PASSES, miss, 3, &r);
    make_trace(b, LEN, PASSES, miss, 3, &r);
    assert_true(gs_trace_conflict_confirmed(a, LEN * PASSES, b, LEN * PASSES, LEN, &band));
    assert_false(gs_trace_conflict_confirmed(a, 0, b, 0, LEN, &band));
}

/* The per-position miss count that spikes do not reach: computed by hand from the Poisson tail
 * (rate x passes per position, 1 % over all positions), and checked against simulated spikes. */
static void systematic_misses_outgrow_spikes(void **state)
{
    (void)state;
    assert_int_equal(gs_systematic_misses(1, 0.01, 100), 1);      /* one pass: any miss */
    assert_int_equal(gs_systematic_misses(64, 0, 100), 1);        /* no spikes */
    assert_int_equal(gs_systematic_misses(16, 0.002, 5), 2);      /* lambda 0.032 */
    assert_int_equal(gs_systematic_misses(64, 0.0036, 4097), 6);  /* lambda 0.23, 4097 places */
    assert_int_equal(gs_systematic_misses(64, 0.05, 1000), 14);   /* lambda 3.2 */
    assert_int_equal(gs_systematic_misses(2, 0.05, 100000), 2);   /* no more than the passes */
    /* 4097 positions x 64 passes of spikes at 0.36 %: no position reaches the count */
    gs_rng rng;
    gs_rng_seed(&rng, 3);
    unsigned need = gs_systematic_misses(64, 0.0036, 4097), worst = 0;
    for (size_t i = 0; i < 4097; i++) {
        unsigned c = 0;
        for (int p = 0; p < 64; p++)
            c += gs_rng_below(&rng, 1000000) < 3600;
        worst = c > worst ? c : worst;
    }
    assert_true(worst < need);
    assert_true(worst >= 2);                    /* the old rule (2) would have taken some */
}

static void miss_latency_of_no_miss_is_nan(void **state)
{
    (void)state;
    uint32_t lat[4] = {1, 2, 3, 4};
    assert_true(isnan(gs_trace_miss_latency(lat, 4, 10)));
    assert_true(isnan(gs_trace_miss_latency(NULL, 0, 10)));
}

/* ---- granularity ---------------------------------------------------------------------------------- */

static void fetch_granularity_is_the_sector(void **state)
{
    (void)state;
    enum { N = 512 };
    uint32_t lat[N];
    for (int i = 0; i < N; i++)
        lat[i] = (i % 8 == 0) ? 400 : 100;         /* a miss every 8 x 4 B = 32 B */
    lat[256] = 700;                                /* a page boundary, still a miss */
    assert_int_equal(gs_fetch_granularity(lat, N, 4, 150), 32);
    for (int i = 0; i < N; i++)
        lat[i] = 100;
    assert_int_equal(gs_fetch_granularity(lat, N, 4, 150), 0);  /* warm: none */
    lat[0] = 400;
    assert_int_equal(gs_fetch_granularity(lat, N, 4, 150), 0);  /* one miss: no distance */
}

/* ---- sets ------------------------------------------------------------------------------------------ */

static void overflow_steps_give_unequal_sets(void **state)
{
    (void)state;
    /* Fig. 11: the big set overflows first with 18 missing entries, then 8 + 1 each. */
    size_t missing[7] = {18, 27, 36, 45, 54, 63, 72};
    unsigned ways[16];
    assert_int_equal(gs_overflow_sets(missing, 7, ways, 16), 7);
    assert_int_equal(ways[0], 17);
    for (int i = 1; i < 7; i++)
        assert_int_equal(ways[i], 8);
    assert_false(gs_ways_equal(ways, 7));
}

static void overflow_steps_equal_and_repeated_sets(void **state)
{
    (void)state;
    size_t eq[3] = {5, 10, 15};
    size_t again[3] = {5, 6, 11};        /* block 2 lands in the set already overflowing */
    size_t falling[3] = {5, 4, 9};
    size_t flat[2] = {5, 5};
    unsigned ways[4];
    assert_int_equal(gs_overflow_sets(eq, 3, ways, 4), 3);
    assert_true(gs_ways_equal(ways, 3) && ways[0] == 4);
    assert_int_equal(gs_overflow_sets(again, 3, ways, 4), 2);
    assert_int_equal(ways[1], 4);
    assert_int_equal(gs_overflow_sets(falling, 3, ways, 4), -1);
    assert_int_equal(gs_overflow_sets(flat, 2, ways, 4), -1);
    assert_int_equal(gs_overflow_sets(eq, 3, ways, 2), -1);       /* more sets than room */
    assert_int_equal(gs_overflow_sets(eq, 0, ways, 4), 0);
}

static void bit_select_line(void **state)
{
    (void)state;
    assert_int_equal(gs_bit_select_line(16384, 5, 7, 4, 4), 128);      /* Fermi L1 */
    assert_int_equal(gs_bit_select_line(12288, 2, 7, 96, 32), 32);     /* texture L1, bits 7-8 */
    assert_int_equal(gs_bit_select_line(32u << 20, 0, 63, 16, 4), 2u << 20);   /* L1 TLB */
    assert_int_equal(gs_bit_select_line(16384, 9, 7, 4, 128), 0);      /* XOR hash read as bits */
    assert_int_equal(gs_bit_select_line(12288, 5, 7, 4, 4), 0);        /* not a whole line */
    assert_int_equal(gs_bit_select_line(16384, 2, 5, 4, 4), 0);        /* line above index bits */
    assert_int_equal(gs_bit_select_line(16384, 2, 7, 0, 4), 0);
}

/* ---- policies -------------------------------------------------------------------------------------- */

static void policies_by_hand(void **state)
{
    (void)state;
    /* 2 ways: A B A C B */
    uint32_t seq[5] = {0, 1, 0, 2, 1};
    bool hit[5];
    assert_int_equal(gs_policy_predict(GS_POLICY_LRU, 0, seq, 5, 2, hit), 0);
    bool lru[5] = {false, false, true, false, false};
    assert_memory_equal(hit, lru, sizeof lru);
    assert_int_equal(gs_policy_predict(GS_POLICY_FIFO, 0, seq, 5, 2, hit), 0);
    bool fifo[5] = {false, false, true, false, true};
    assert_memory_equal(hit, fifo, sizeof fifo);
    /* 4-way tree-PLRU: A B C D fill ways 0..3; A hit; E evicts the way the tree points to (2,
     * since the touch of A pointed the root right and way 3 was used after way 2) */
    uint32_t p[7] = {0, 1, 2, 3, 0, 4, 2};
    bool ph[7];
    assert_int_equal(gs_policy_predict(GS_POLICY_PLRU, 0, p, 7, 4, ph), 0);
    bool plru[7] = {false, false, false, false, true, false, false};
    assert_memory_equal(ph, plru, sizeof plru);
    assert_int_equal(gs_policy_predict(GS_POLICY_LRU, 0, p, 7, 4, ph), 0);
    assert_true(ph[6]);                       /* LRU evicts B (way 1), so C still hits */
    assert_int_equal(gs_policy_predict(GS_POLICY_PLRU, 0, p, 7, 3, ph), -1);
    assert_int_equal(gs_policy_predict(GS_POLICY_RANDOM, 0, p, 7, 4, ph), -1);
    assert_int_equal(gs_policy_predict(GS_POLICY_LRU, 0, p, 7, 0, ph), -1);
    assert_string_equal(gs_policy_name(GS_POLICY_WEIGHTED), "weighted");
    /* 4-way SRRIP, the priming access then a cyclic walk over 5 blocks: A A B C D E A B. A's hit
     * sets it to 0; E ages every way by one and evicts B (the lowest way at 3); A still hits
     * (LRU would have evicted A), B misses and evicts C */
    uint32_t r[8] = {0, 0, 1, 2, 3, 4, 0, 1};
    bool rh[8];
    assert_int_equal(gs_policy_predict(GS_POLICY_SRRIP, 0, r, 8, 4, rh), 0);
    bool srrip[8] = {false, true, false, false, false, false, true, false};
    assert_memory_equal(rh, srrip, sizeof srrip);
    assert_int_equal(gs_policy_predict(GS_POLICY_LRU, 0, r, 8, 4, rh), 0);
    assert_false(rh[6]);
    assert_string_equal(gs_policy_name(GS_POLICY_SRRIP), "srrip");
    /* 3-way segmented LRU: A B C A B D E A. The hits on A and B protect them; with one protected
     * line B's protection sends A back, D evicts C and E evicts A (the least recent unprotected),
     * so A misses, as under LRU; with two protected E can only evict D, and A hits. */
    uint32_t q[8] = {0, 1, 2, 0, 1, 3, 4, 0};
    bool qh[8];
    bool one[8] = {false, false, false, true, true, false, false, false};
    bool two[8] = {false, false, false, true, true, false, false, true};
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 1, q, 8, 3, qh), 0);
    assert_memory_equal(qh, one, sizeof one);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 2, q, 8, 3, qh), 0);
    assert_memory_equal(qh, two, sizeof two);
    assert_int_equal(gs_policy_predict(GS_POLICY_LRU, 0, q, 8, 3, qh), 0);
    assert_memory_equal(qh, one, sizeof one);
    /* 4 ways, two protected: A B A B C D C E D A. C's hit demotes A to the most recent end of
     * the unprotected lines (segmented LRU's definition), so E evicts D and D evicts A; had A
     * kept its old place, E would have evicted it and D would hit (tests/sim/test_memory_cache.c
     * holds the simulator to the same) */
    uint32_t d[10] = {0, 1, 0, 1, 2, 3, 2, 4, 3, 0};
    bool dh[10], demoted[10] = {false, false, true, true, false, false, true, false, false, false};
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 2, d, 10, 4, dh), 0);
    assert_memory_equal(dh, demoted, sizeof demoted);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 0, q, 8, 3, qh), -1);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 3, q, 8, 3, qh), -1);
    /* the priming access and a cyclic walk over 5 blocks of 4 ways: the twice-touched A stays */
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 2, r, 8, 4, rh), 0);
    assert_memory_equal(rh, srrip, sizeof srrip);
    assert_string_equal(gs_policy_name(GS_POLICY_SLRU), "slru");
    /* 4 ways, segmented LRU over the last two hits: A B C D A B E F G A. The hits on A and B
     * protect both, so E F G evict C D E and A hits, as with two protected lines; with one, B's
     * hit sends A back and G evicts it. A B C D A B B E F G A: B's second hit takes A's place
     * among the last two hits, A goes back and G evicts it (A misses, as with one protected line,
     * where two protected lines keep it): the rule of the H100's L1 traces. */
    uint32_t h1[10] = {0, 1, 2, 3, 0, 1, 4, 5, 6, 0}, h2[11] = {0, 1, 2, 3, 0, 1, 1, 4, 5, 6, 0};
    bool hh[11], want1[10] = {false, false, false, false, true, true, false, false, false, true};
    bool want2[11] = {false, false, false, false, true, true, true, false, false, false, false};
    assert_int_equal(gs_policy_predict(GS_POLICY_HSLRU, 2, h1, 10, 4, hh), 0);
    assert_memory_equal(hh, want1, sizeof want1);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 1, h1, 10, 4, hh), 0);
    assert_false(hh[9]);
    assert_int_equal(gs_policy_predict(GS_POLICY_HSLRU, 2, h2, 11, 4, hh), 0);
    assert_memory_equal(hh, want2, sizeof want2);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 2, h2, 11, 4, hh), 0);
    assert_true(hh[10]);
    /* over one hit it is segmented LRU with one protected line */
    bool s1[11];
    assert_int_equal(gs_policy_predict(GS_POLICY_HSLRU, 1, h2, 11, 4, hh), 0);
    assert_int_equal(gs_policy_predict(GS_POLICY_SLRU, 1, h2, 11, 4, s1), 0);
    assert_memory_equal(hh, s1, sizeof s1);
    assert_int_equal(gs_policy_predict(GS_POLICY_HSLRU, 4, h2, 11, 4, hh), -1);
    assert_string_equal(gs_policy_name(GS_POLICY_HSLRU), "hslru");
}

static void mismatch_picks_the_policy(void **state)
{
    (void)state;
    enum { N = 2000, WAYS = 8 };
    uint32_t *seq = malloc(N * sizeof *seq);
    bool *hit = malloc(N * sizeof *hit), *miss = malloc(N * sizeof *miss);
    gs_rng r;
    gs_rng_seed(&r, 5);
    for (int i = 0; i < N; i++)
        seq[i] = (uint32_t)gs_rng_below(&r, WAYS + 1);
    gs_policy truth[4] = {GS_POLICY_LRU, GS_POLICY_FIFO, GS_POLICY_PLRU, GS_POLICY_SRRIP};
    for (int t = 0; t < 4; t++) {
        gs_policy_predict(truth[t], 0, seq, N, WAYS, hit);
        for (int i = 0; i < N; i++)
            miss[i] = !hit[i];
        miss[100] = !miss[100];                          /* one access misread by noise */
        for (int c = 0; c < 4; c++) {
            double mm = gs_policy_mismatch(truth[c], 0, seq, miss, N, WAYS);
            if (c == t)
                assert_true(mm < 0.01);
            else
                assert_true(mm > 0.05);
        }
    }
    assert_true(gs_policy_mismatch(GS_POLICY_LRU, 0, seq, miss, 0, WAYS) == 1);
    free(seq);
    free(hit);
    free(miss);
}

/* A test-local set with a victim chosen by probabilities p (uniform when p is NULL), empty ways
 * first: the cyclic walk over ways + 1 blocks that section 3.2 (4) uses. Returns misses. */
static void cyclic_stochastic(const double *p, unsigned ways, size_t n, uint32_t *blocks,
                              bool *miss, gs_rng *r)
{
    int held[64];
    unsigned filled = 0;
    for (unsigned w = 0; w < ways; w++)
        held[w] = -1;
    for (size_t i = 0; i < n; i++) {
        int b = (int)(i % (ways + 1));
        blocks[i] = (uint32_t)b;
        bool present = false;
        for (unsigned w = 0; w < ways; w++)
            present |= held[w] == b;
        miss[i] = !present;
        if (present)
            continue;
        unsigned v = filled;
        if (filled < ways) {
            filled++;
        } else if (!p) {
            v = (unsigned)gs_rng_below(r, ways);
        } else {
            double u = gs_rng_unit(r), acc = 0;
            for (v = 0; v + 1 < ways; v++)
                if (u < (acc += p[v]))
                    break;
        }
        held[v] = b;
    }
}

static void victims_of_fermi_weighted_ways(void **state)
{
    (void)state;
    enum { N = 6000, WAYS = 4 };
    const double fermi[WAYS] = {1.0 / 6, 1.0 / 2, 1.0 / 6, 1.0 / 6};
    uint32_t *blocks = malloc(N * sizeof *blocks);
    bool *miss = malloc(N * sizeof *miss);
    uint64_t counts[WAYS];
    gs_rng r;
    gs_rng_seed(&r, 11);
    cyclic_stochastic(fermi, WAYS, N, blocks, miss, &r);
    long v = gs_victim_way_counts(blocks, miss, N, WAYS, counts);
    assert_true(v > 500);
    for (int w = 0; w < WAYS; w++)
        assert_true(fabs((double)counts[w] / (double)v - fermi[w]) < 0.05);
    assert_false(gs_counts_uniform(counts, WAYS));
    cyclic_stochastic(NULL, WAYS, N, blocks, miss, &r);
    v = gs_victim_way_counts(blocks, miss, N, WAYS, counts);
    assert_true(v > 500);
    assert_true(gs_counts_uniform(counts, WAYS));
    for (int w = 0; w < WAYS; w++)
        assert_true(fabs((double)counts[w] / (double)v - 0.25) < 0.05);
    free(blocks);
    free(miss);
}

static void victims_bad_input(void **state)
{
    (void)state;
    uint32_t b[3] = {0, 1, 0};
    bool m[3] = {true, true, false};
    uint64_t c[4];
    assert_int_equal(gs_victim_way_counts(b, m, 3, 4, c), -1);   /* 2 blocks for 4 ways */
    assert_int_equal(gs_victim_way_counts(b, m, 3, 0, c), -1);
    uint64_t none[3] = {0, 0, 0};
    assert_true(gs_counts_uniform(none, 3));
}

/* The misses of a deterministic policy on a cyclic walk repeat (LRU: every access; a protected
 * way with LRU in the rest: every access but the protected block's); a random policy's do not. */
static void miss_period(void **state)
{
    (void)state;
    enum { N = 4000 };
    bool *miss = malloc(N * sizeof *miss);
    for (int i = 0; i < N; i++)
        miss[i] = true;
    assert_int_equal(gs_miss_period(miss, N, 64, 0.02), 1);
    for (int i = 0; i < N; i++)
        miss[i] = i % 5 != 0;
    assert_int_equal(gs_miss_period(miss, N, 64, 0.02), 5);
    miss[N - 7] = !miss[N - 7];                                  /* one noisy step */
    assert_int_equal(gs_miss_period(miss, N, 64, 0.02), 5);
    uint32_t *blocks = malloc(N * sizeof *blocks);
    gs_rng r;
    gs_rng_seed(&r, 5);
    cyclic_stochastic(NULL, 4, N, blocks, miss, &r);
    assert_int_equal(gs_miss_period(miss, N, 64, 0.02), 0);
    free(blocks);
    free(miss);
}

/* A trace in shared memory that shrank the L1 (49 KB vs 184 KB) is caught; agreement within the
 * resolution or an eighth is not. */
static void sizes_consistent_or_not(void **state)
{
    (void)state;
    assert_true(gs_sizes_consistent(196608, 196608, 2048));
    assert_true(gs_sizes_consistent(196608, 194560, 1024));       /* one bisection step off */
    assert_true(gs_sizes_consistent(52428800, 50331648, 524288)); /* 1/25 off */
    assert_false(gs_sizes_consistent(49900, 188416, 2048));       /* the H100's trace-shrunk L1 */
    assert_false(gs_sizes_consistent(1280, 50331648, 524288));    /* an L2 of 1.25 KB */
    assert_false(gs_sizes_consistent(0, 4096, 64));
}

/* avg = hit + penalty x min(1, s / g): flat from g on. */
static void fetch_from_cold_strides(void **state)
{
    (void)state;
    uint64_t s[8];
    double a[8];
    for (int g = 16; g <= 128; g *= 2) {
        for (int i = 0; i < 8; i++) {
            s[i] = 4ull << i;
            a[i] = 280 + 400.0 * (s[i] < (uint64_t)g ? (double)s[i] / g : 1.0) + (i % 2);
        }
        assert_int_equal(gs_fetch_from_strides(s, a, 8, 0.05), (uint64_t)g);
    }
    for (int i = 0; i < 8; i++)
        a[i] = 300 + (i % 2);                               /* everything hits: no growth */
    assert_int_equal(gs_fetch_from_strides(s, a, 8, 0.05), 0);
    for (int i = 0; i < 8; i++)
        a[i] = 100.0 * (i + 1);                             /* grows to the end: no flat part */
    assert_int_equal(gs_fetch_from_strides(s, a, 8, 0.05), 0);
}

/* A fetch of the smallest unit is the sector; any other fetch decides nothing. */
static void sector_only_from_a_unit_fetch(void **state)
{
    (void)state;
    assert_int_equal(gs_sector_from_fetch(32, 32), 32);
    assert_int_equal(gs_sector_from_fetch(64, 32), 0);   /* the H100's L2: two sectors a miss? */
    assert_int_equal(gs_sector_from_fetch(128, 32), 0);  /* unsectored, or four per miss */
    assert_int_equal(gs_sector_from_fetch(16, 32), 0);
    assert_int_equal(gs_sector_from_fetch(0, 32), 0);
}

/* Blocks small enough to be found through a table and blocks too large for one (a scan of the
 * valid ways) give the same predictions, for every policy, on random traces. */
static void predict_large_blocks_alike(void **state)
{
    (void)state;
    static const gs_policy policies[] = {GS_POLICY_LRU,   GS_POLICY_FIFO, GS_POLICY_PLRU,
                                         GS_POLICY_SRRIP, GS_POLICY_SLRU, GS_POLICY_HSLRU};
    enum { N = 3000, WAYS = 8 };
    uint32_t small[N], large[N];
    bool a[N], b[N];
    gs_rng r;
    gs_rng_seed(&r, 9);
    for (size_t i = 0; i < N; i++) {
        small[i] = (uint32_t)gs_rng_below(&r, WAYS + 5);
        large[i] = small[i] * 7919u + 0x40000000u;
    }
    for (size_t k = 0; k < sizeof policies / sizeof policies[0]; k++) {
        unsigned protect = gs_policy_segmented(policies[k]) ? 3 : 0;
        assert_int_equal(gs_policy_predict(policies[k], protect, small, N, WAYS, a), 0);
        assert_int_equal(gs_policy_predict(policies[k], protect, large, N, WAYS, b), 0);
        assert_memory_equal(a, b, sizeof a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(band_of_equal_and_jittered_hits),
        cmocka_unit_test(sector_only_from_a_unit_fetch),
        cmocka_unit_test(band_needs_samples),
        cmocka_unit_test(conflicts_repeat_and_spikes_do_not),
        cmocka_unit_test(second_trace_confirms),
        cmocka_unit_test(systematic_misses_outgrow_spikes),
        cmocka_unit_test(miss_latency_of_no_miss_is_nan),
        cmocka_unit_test(fetch_granularity_is_the_sector),
        cmocka_unit_test(overflow_steps_give_unequal_sets),
        cmocka_unit_test(overflow_steps_equal_and_repeated_sets),
        cmocka_unit_test(bit_select_line),
        cmocka_unit_test(policies_by_hand),
        cmocka_unit_test(mismatch_picks_the_policy),
        cmocka_unit_test(victims_of_fermi_weighted_ways),
        cmocka_unit_test(victims_bad_input),
        cmocka_unit_test(miss_period),
        cmocka_unit_test(sizes_consistent_or_not),
        cmocka_unit_test(fetch_from_cold_strides),
        cmocka_unit_test(predict_large_blocks_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
