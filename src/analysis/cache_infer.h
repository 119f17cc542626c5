/* Cache and TLB structure inference from fine-grained P-chase traces (sections 3.2 and 4 of the
 * memory-hierarchy paper, Listing 4): hit/miss classification, conflict verdicts, the growth of
 * missing blocks past capacity (set sizes, equal or not, Fig. 11), and the replacement policy
 * (LRU, FIFO, tree-PLRU predicted exactly; random and weighted ways estimated from victims, Fig. 8).
 * Pure functions over arrays: they never see a device or a model, only latencies and the chains
 * that produced them. A trace entry i is the access to chain position i % chain_len. */
#ifndef GS_CACHE_INFER_H
#define GS_CACHE_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- hit/miss classification ----------------------------------------------------------------- */

/* The hit band of a level, learnt from a trace whose accesses all hit it (a chain that fits):
 * hit_cycles is the median; threshold_cycles separates hits from slower accesses: the 90th
 * percentile plus the band's width (90th minus 10th percentile, at least 2 cycles), so jitter of
 * several cycles and a bimodal hit (near and far partitions) stay inside while a miss penalty
 * larger than the band's width falls outside. outlier_rate is an upper estimate of the share of
 * rare spikes above the threshold, (count + 1.96 sqrt(count + 1) + 2) / n (none seen in n samples
 * does not mean none), used to tell conflicts from noise. */
typedef struct gs_hit_band {
    double hit_cycles;
    double fast_cycles;          /* 1st percentile, the fastest hits: a miss of penalty P lands
                                    above the threshold on (nearly) every access only when
                                    P > threshold - fast */
    double threshold_cycles;
    double outlier_rate;
    size_t n;
} gs_hit_band;

/* 0, or -1 when fewer than 8 finite samples (then *out is NaN-filled). */
int gs_hit_band_from_trace(const uint32_t *latency_cycles, size_t n, gs_hit_band *out);

/* Misses per chain position over a trace (counts is chain_len long, zeroed here); returns the
 * total number of misses. */
size_t gs_trace_miss_counts(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                            double threshold_cycles, uint32_t *counts);

/* Does a steady-state trace show a capacity or conflict miss? Yes when a chain position missed in
 * a quarter of the passes and twice at least (misses that repeat where the chain repeats), or when
 * the misses exceed what the band's outlier rate explains (mean + 3 sigma + 1). Noise spikes alone
 * say no. */
bool gs_trace_conflict(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                       const gs_hit_band *band);

/* The verdict of two traces of the same chain: both must show a conflict, and either a position
 * systematic in the first misses again in the second, or both have misses in excess. Spikes that
 * made one trace look conflicting do not land on the same positions again. */
bool gs_trace_conflict_confirmed(const uint32_t *first, size_t n1, const uint32_t *second,
                                 size_t n2, size_t chain_len, const gs_hit_band *band);

/* The fewest misses at one chain position over `passes` passes that noise spikes (an outlier
 * rate per access) do not explain: the smallest count c >= 2 with positions x P(Poisson(rate x
 * passes) >= c) < 0.01, so that over all positions a spurious one is a 1 % event; at most
 * `passes` (a miss in every pass is the most a trace can show); 1 when the rate is 0 or there is
 * one pass. */
unsigned gs_systematic_misses(size_t passes, double outlier_rate, size_t positions);

/* Chain positions that missed at least min_misses times, in chain order, into positions
 * (chain_len long); returns how many. */
size_t gs_trace_missing_positions(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                                  double threshold_cycles, unsigned min_misses, size_t *positions);

/* Median latency of the accesses above the threshold; NaN when none. */
double gs_trace_miss_latency(const uint32_t *latency_cycles, size_t n, double threshold_cycles);

/* ---- granularity ------------------------------------------------------------------------------ */

/* Fetch granularity from a cold trace of a stride walk (stride_bytes apart, starting at offset 0):
 * the most common distance in bytes between consecutive misses. 0 when fewer than two misses. */
uint64_t gs_fetch_granularity(const uint32_t *latency_cycles, size_t n, uint64_t stride_bytes,
                              double threshold_cycles);

/* The sector (the unit a line's valid bits track) that a fetch granularity decides. A miss fills
 * whole sectors, so sector <= fetch. A fetch of exactly unit_bytes, the smallest unit the memory
 * system moves (32 B on NVIDIA GPUs: a request's sector), leaves no smaller unit a load could ever
 * fill, miss or hit alone, so the sector is the fetch. Any other fetch (larger: several sectors
 * per miss or an unsectored line, which a load walk cannot tell apart; smaller: below the unit, a
 * model that no argument covers) returns 0, not determined. */
uint64_t gs_sector_from_fetch(uint64_t fetch_bytes, uint64_t unit_bytes);

/* ---- sets and ways ------------------------------------------------------------------------------ */

/* Footprint grown one block at a time past capacity (block k = 1..count added): missing[k-1] is
 * the number of distinct blocks seen missing. When block k overflows a set that was full, the
 * missing blocks jump by that set's ways + 1; when it lands in a set already overflowing, by 1
 * (section 4.2, Fig. 11). Writes the ways of each newly overflowing set in order into
 * ways_per_set (max_sets long) and returns how many sets were found; -1 when the counts are not
 * explained (they fall, or grow by 0 where a block was added). */
int gs_overflow_sets(const size_t *missing, size_t count, unsigned *ways_per_set,
                     size_t max_sets);

/* Equal sets: true when all n entries are equal. */
bool gs_ways_equal(const unsigned *ways_per_set, size_t n);

/* ---- replacement policy ---------------------------------------------------------------------------- */

typedef enum gs_policy {
    GS_POLICY_LRU = 0,
    GS_POLICY_FIFO,
    GS_POLICY_PLRU,           /* binary-tree pseudo-LRU, ways a power of two */
    GS_POLICY_SRRIP,          /* static RRIP, 2-bit re-reference values: fill at 2, hit to 0,
                                 victim the lowest way at 3 (all aged until one is) */
    GS_POLICY_SLRU,           /* segmented LRU: a hit protects a line, at most `protect` a set
                                 (the least recent other goes back); the victim is the least
                                 recent unprotected line (the simulator's "slru") */
    GS_POLICY_HSLRU,          /* segmented LRU over the last `protect` hits: the protected lines
                                 are those of the last `protect` hit events (a line hit twice in
                                 a row holds two of them), a line no longer among them goes back
                                 to the most recent end of the unprotected ones; the victim is
                                 the least recent unprotected line (the simulator's "hslru") */
    GS_POLICY_RANDOM,
    GS_POLICY_WEIGHTED,
    GS_POLICY_UNKNOWN,
} gs_policy;

const char *gs_policy_name(gs_policy p);

/* Segmented LRU of either kind (SLRU, HSLRU): `protect` counts its protected lines or hits. */
bool gs_policy_segmented(gs_policy p);

/* Hits that a deterministic policy (LRU, FIFO, PLRU, SRRIP, SLRU, HSLRU) predicts for one set of
 * `ways` ways that starts empty and fills empty ways lowest first: blocks[i] is the block
 * accessed at step i (small integers). protect: SLRU's most protected lines, HSLRU's hits
 * remembered, 1 .. ways - 1 (ignored by the others). -1 for a policy it cannot predict, ways 0 or
 * over 256 (PLRU: over 64), or SLRU or HSLRU with protect out of range. */
int gs_policy_predict(gs_policy p, unsigned protect, const uint32_t *blocks, size_t n,
                      unsigned ways, bool *hit);

/* Share of steps where the prediction of policy p (protect as above) differs from the observed
 * misses; 1 when p cannot be predicted. */
double gs_policy_mismatch(gs_policy p, unsigned protect, const uint32_t *blocks, const bool *miss,
                          size_t n, unsigned ways);

/* Victim ways from a cold trace of a cyclic walk over ways + 1 blocks of one set (Fermi's L1
 * study, section 3.2 (4)): once the set is full exactly one block is absent, so the block of each
 * miss is the victim of the miss before it, and it leaves the way the missing block then takes.
 * Ways are named by the order in which the empty set filled them. counts (ways long) receives how
 * often each way was the victim; returns the number of victims, or -1 on bad input. Misses that
 * contradict the tracked state (noise) are skipped. */
long gs_victim_way_counts(const uint32_t *blocks, const bool *miss, size_t n, unsigned ways,
                          uint64_t *counts);

/* The shortest period p (1..max_period) with which the second half of a hit/miss trace repeats,
 * allowing a share `tolerance` of steps to differ (noise); 0 when none: the misses of a
 * deterministic policy on a cyclic walk repeat, a random policy's do not. */
size_t gs_miss_period(const bool *miss, size_t n, size_t max_period, double tolerance);

/* Pearson chi-square test of counts against equal shares; true when uniformity is not rejected at
 * the 0.01% level (a random policy). */
bool gs_counts_uniform(const uint64_t *counts, unsigned k);

/* ---- mapping ------------------------------------------------------------------------------------ */

/* Bit-select hypothesis: sets = 2^index_bits, ways, size -> line = size / (sets * ways). Valid
 * when that is a whole power of two, at least min_line_bytes and at most 2^lowest_index_bit.
 * Returns the line, or 0 when the hypothesis does not hold. */
uint64_t gs_bit_select_line(uint64_t size_bytes, unsigned index_bits, unsigned lowest_index_bit,
                            unsigned ways, uint64_t min_line_bytes);

/* ---- average-mode cross-checks (no trace in shared memory) ------------------------------------ */

/* Do a fine-grained capacity and an average-mode capacity (found to resolution_bytes) describe
 * the same level? Yes when they differ by at most twice the resolution or an eighth of the
 * average-mode size. A fine-grained trace held in shared memory can shrink a unified L1; then
 * they disagree and the fine-grained structure does not describe the level as configured. */
bool gs_sizes_consistent(uint64_t fine_bytes, uint64_t avg_bytes, uint64_t resolution_bytes);

/* Fetch granularity from cold sequential stride walks (average mode): stride_bytes ascending,
 * each double the one before, avg_cycles the average latency of each. Below the granularity g a
 * walk of stride s misses once every g / s accesses, so the average grows with s; from g on every
 * access misses and it stays flat. Returns the smallest stride from which every later average
 * lies within tolerance (relative) of it, provided the first average lies below it by more than
 * the tolerance; 0 when no such stride (no growth seen, or no flat end). */
uint64_t gs_fetch_from_strides(const uint64_t *stride_bytes, const double *avg_cycles, size_t n,
                               double tolerance);

#endif
