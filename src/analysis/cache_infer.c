/* Cache and TLB structure inference from P-chase traces (cache_infer.h): classification, conflict
 * verdicts, set sizes from overflow steps, and replacement policy from predicted and observed
 * misses. Pure functions over arrays. */
#include "analysis/cache_infer.h"

#define CACHE_INFER_MAX_BLOCKS 257   /* ways + 1 blocks of the victim study, at most */
#define PREDICT_TABLE_BLOCKS (1u << 20)  /* gs_policy_predict finds blocks below this by a table */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hit/miss classification ----------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Value at quantile q of sorted s[0..n), nearest rank. */
static double quantile_sorted(const uint32_t *s, size_t n, double q)
{
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return (double)s[i < n ? i : n - 1];
}

int gs_hit_band_from_trace(const uint32_t *latency_cycles, size_t n, gs_hit_band *out)
{
    out->hit_cycles = out->fast_cycles = out->threshold_cycles = out->outlier_rate = NAN;
    out->n = n;
    if (n < 8 || !latency_cycles)
        return -1;
    uint32_t *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, latency_cycles, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_u32);
    double p10 = quantile_sorted(s, n, 0.10), p90 = quantile_sorted(s, n, 0.90);
    double width = p90 - p10 < 2 ? 2 : p90 - p10;
    out->hit_cycles = quantile_sorted(s, n, 0.5);
    out->fast_cycles = quantile_sorted(s, n, 0.01);
    out->threshold_cycles = p90 + width;
    size_t above = 0;
    for (size_t i = 0; i < n; i++)
        above += s[i] > out->threshold_cycles;
    /* an upper estimate (about the Poisson 97.5% bound): 0 seen in n does not mean none */
    out->outlier_rate = ((double)above + 1.96 * sqrt((double)above + 1) + 2) / (double)n;
    free(s);
    return 0;
}

size_t gs_trace_miss_counts(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                            double threshold_cycles, uint32_t *counts)
{
    size_t total = 0;
    if (chain_len == 0)
        return 0;
    memset(counts, 0, chain_len * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        if (latency_cycles[i] > threshold_cycles) {
            counts[i % chain_len]++;
            total++;
        }
    return total;
}

/* Misses a position needs to count as systematic: a quarter of the passes, twice at least. */
static uint32_t systematic_need(size_t passes)
{
    return passes / 4 > 2 ? (uint32_t)(passes / 4) : 2;
}

/* Misses beyond what the band's spikes explain: mean + 3 sigma + 1. */
static bool excess(size_t total, size_t n, const gs_hit_band *band)
{
    double rate = isfinite(band->outlier_rate) ? band->outlier_rate : 0;
    double expect = rate * (double)n;
    return (double)total > expect + 3 * sqrt(expect) + 1;
}

bool gs_trace_conflict(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                       const gs_hit_band *band)
{
    if (n == 0 || chain_len == 0 || !isfinite(band->threshold_cycles))
        return false;
    uint32_t *counts = malloc(chain_len * sizeof *counts);
    if (!counts)
        return false;
    size_t total = gs_trace_miss_counts(latency_cycles, n, chain_len, band->threshold_cycles,
                                        counts);
    /* A position that misses in a quarter of the passes (and twice at least) is systematic: rare
     * spikes do not pile up on one position that often. */
    bool repeated = false;
    size_t passes = n / chain_len;
    if (passes >= 2)
        for (size_t i = 0; i < chain_len && !repeated; i++)
            repeated = counts[i] >= systematic_need(passes);
    free(counts);
    return repeated || excess(total, n, band);
}

bool gs_trace_conflict_confirmed(const uint32_t *first, size_t n1, const uint32_t *second,
                                 size_t n2, size_t chain_len, const gs_hit_band *band)
{
    if (!gs_trace_conflict(first, n1, chain_len, band) ||
        !gs_trace_conflict(second, n2, chain_len, band))
        return false;
    uint32_t *c1 = malloc(chain_len * sizeof *c1), *c2 = malloc(chain_len * sizeof *c2);
    if (!c1 || !c2) {
        free(c1), free(c2);
        return false;
    }
    size_t t1 = gs_trace_miss_counts(first, n1, chain_len, band->threshold_cycles, c1);
    size_t t2 = gs_trace_miss_counts(second, n2, chain_len, band->threshold_cycles, c2);
    size_t p1 = n1 / chain_len;
    bool again = false;
    for (size_t i = 0; i < chain_len && !again; i++)
        again = (p1 >= 2 ? c1[i] >= systematic_need(p1) : c1[i] > 0) && c2[i] > 0;
    free(c1), free(c2);
    return again || (excess(t1, n1, band) && excess(t2, n2, band));
}

unsigned gs_systematic_misses(size_t passes, double outlier_rate, size_t positions)
{
    if (passes < 2 || !(outlier_rate > 0))
        return 1;
    double lambda = outlier_rate * (double)passes, term = exp(-lambda), below = 0;
    for (unsigned c = 0; c < 1000; c++) {
        below += term;                                  /* P(X <= c) */
        if (c + 1 >= passes || (c + 1 >= 2 && (1 - below) * (double)(positions ? positions : 1)
                                                  < 0.01))
            return c + 1;
        term *= lambda / (double)(c + 1);
    }
    return 1000;
}

size_t gs_trace_missing_positions(const uint32_t *latency_cycles, size_t n, size_t chain_len,
                                  double threshold_cycles, unsigned min_misses, size_t *positions)
{
    if (chain_len == 0)
        return 0;
    uint32_t *counts = malloc(chain_len * sizeof *counts);
    if (!counts)
        return 0;
    gs_trace_miss_counts(latency_cycles, n, chain_len, threshold_cycles, counts);
    size_t m = 0;
    for (size_t i = 0; i < chain_len; i++)
        if (counts[i] >= (min_misses ? min_misses : 1))
            positions[m++] = i;
    free(counts);
    return m;
}

double gs_trace_miss_latency(const uint32_t *latency_cycles, size_t n, double threshold_cycles)
{
    uint32_t *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (latency_cycles[i] > threshold_cycles)
            s[m++] = latency_cycles[i];
    double med = NAN;
    if (m) {
        qsort(s, m, sizeof *s, cmp_u32);
        med = m % 2 ? s[m / 2] : ((double)s[m / 2 - 1] + s[m / 2]) / 2;
    }
    free(s);
    return med;
}

/* ---- granularity ------------------------------------------------------------------------------ */

uint64_t gs_fetch_granularity(const uint32_t *latency_cycles, size_t n, uint64_t stride_bytes,
                              double threshold_cycles)
{
    /* Distances between consecutive misses, in accesses; the most common one wins (the smallest
     * among equals), so a rarer longer gap (a page boundary, a hit by noise) does not. */
    size_t last = SIZE_MAX, best = 0, best_count = 0;
    size_t *hist = calloc(n + 1, sizeof *hist);
    if (!hist)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (latency_cycles[i] <= threshold_cycles)
            continue;
        if (last != SIZE_MAX)
            hist[i - last]++;
        last = i;
    }
    for (size_t d = 1; d <= n; d++)
        if (hist[d] > best_count) {
            best = d;
            best_count = hist[d];
        }
    free(hist);
    return best_count ? best * stride_bytes : 0;
}

/* ---- sets and ways ------------------------------------------------------------------------------ */

int gs_overflow_sets(const size_t *missing, size_t count, unsigned *ways_per_set,
                     size_t max_sets)
{
    size_t sets = 0, prev = 0;
    for (size_t k = 0; k < count; k++) {
        if (missing[k] <= prev)
            return -1;
        size_t jump = missing[k] - prev;
        if (jump >= 2) {
            if (sets == max_sets)
                return -1;
            ways_per_set[sets++] = (unsigned)(jump - 1);
        }
        prev = missing[k];
    }
    return (int)sets;
}

bool gs_ways_equal(const unsigned *ways_per_set, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (ways_per_set[i] != ways_per_set[0])
            return false;
    return true;
}

/* ---- replacement policy ---------------------------------------------------------------------------- */

const char *gs_policy_name(gs_policy p)
{
    static const char *const names[] = {"lru",    "fifo",   "plru",     "srrip",  "slru",
                                        "hslru",  "random", "weighted", "unknown"};
    return p <= GS_POLICY_UNKNOWN ? names[p] : "unknown";
}

bool gs_policy_segmented(gs_policy p)
{
    return p == GS_POLICY_SLRU || p == GS_POLICY_HSLRU;
}

/* Tree-PLRU over `ways` leaves (a power of two): node n has children 2n+1 (lower ways) and 2n+2;
 * a set bit means the next victim is on the right. A use points every node on its path away. */
static void plru_touch(uint64_t *tree, unsigned ways, unsigned w)
{
    unsigned node = 0, lo = 0, span = ways;
    while (span > 1) {
        span /= 2;
        bool right = w >= lo + span;
        if (right) {
            *tree &= ~(1ull << node);
            lo += span;
            node = 2 * node + 2;
        } else {
            *tree |= 1ull << node;
            node = 2 * node + 1;
        }
    }
}

static unsigned plru_victim(uint64_t tree, unsigned ways)
{
    unsigned node = 0, lo = 0, span = ways;
    while (span > 1) {
        span /= 2;
        if (tree >> node & 1) {
            lo += span;
            node = 2 * node + 2;
        } else {
            node = 2 * node + 1;
        }
    }
    return lo;
}

/* One set's state for prediction. */
typedef struct set_state {
    uint32_t block[CACHE_INFER_MAX_BLOCKS];
    uint64_t stamp[CACHE_INFER_MAX_BLOCKS];
    bool valid[CACHE_INFER_MAX_BLOCKS];
    bool prot[CACHE_INFER_MAX_BLOCKS];    /* SLRU, HSLRU: the line is protected */
    uint8_t held[CACHE_INFER_MAX_BLOCKS]; /* HSLRU: the way's places among the last hits */
    uint8_t hist[CACHE_INFER_MAX_BLOCKS]; /* HSLRU: ways of the last hits, oldest first */
    unsigned nhist;
    uint64_t tree;
} set_state;

/* SLRU: the least recent unprotected way (there is one: protect < ways). */
static unsigned slru_victim(const set_state *s, unsigned ways)
{
    int v = -1;
    for (unsigned w = 0; w < ways; w++)
        if (!s->prot[w] && (v < 0 || s->stamp[w] < s->stamp[v]))
            v = (int)w;
    return v < 0 ? 0 : (unsigned)v;
}

/* SLRU: a hit on way w protects it; one protected line too many sends the least recent other
 * protected line back, to the most recent end of the unprotected lines (stamp demoted, between
 * every earlier access and w's), as segmented LRU defines it (Karedla, Love and Wherry, 1994):
 * the H100 L1's protect-then-evict rounds follow that, and not a demoted line that keeps its
 * old place (docs/methods.md "Policy"). */
static void slru_protect(set_state *s, unsigned ways, unsigned protect, unsigned w,
                         uint64_t demoted)
{
    unsigned n = 0;
    int oldest = -1;
    s->prot[w] = true;
    for (unsigned k = 0; k < ways; k++) {
        n += s->prot[k];
        if (k != w && s->prot[k] && (oldest < 0 || s->stamp[k] < s->stamp[oldest]))
            oldest = (int)k;
    }
    if (n > protect && oldest >= 0) {
        s->prot[oldest] = false;
        s->stamp[oldest] = demoted;
    }
}

/* HSLRU: a hit on way w takes the newest of the `protect` places of the last hits; the oldest
 * place goes, and a line left with none goes back to the most recent end of the unprotected
 * lines (stamp demoted, as slru_protect). On an H100's and an H200's L1 this with two places
 * predicts all 406 policy traces of the cards (docs/hardware/h100.md), where classic SLRU with one
 * protected line mispredicts 101 of 170 random sequences (docs/methods.md
 * "Policy"). */
static void hslru_hit(set_state *s, unsigned protect, unsigned w, uint64_t demoted)
{
    s->hist[s->nhist++] = (uint8_t)w;
    s->held[w]++;
    s->prot[w] = true;
    if (s->nhist <= protect)
        return;
    unsigned d = s->hist[0];
    memmove(s->hist, s->hist + 1, --s->nhist * sizeof *s->hist);
    if (--s->held[d] == 0) {
        s->prot[d] = false;
        s->stamp[d] = demoted;
    }
}

/* SRRIP (stamp holds the re-reference value): the lowest way at 3, after ageing all until one
 * is; ageing changes no order, so it is applied once, by the distance of the largest to 3. */
static unsigned srrip_victim(const set_state *s, unsigned ways)
{
    unsigned v = 0;
    for (unsigned w = 1; w < ways; w++)
        if (s->stamp[w] > s->stamp[v])
            v = w;
    return v;
}

static void srrip_age(set_state *s, unsigned ways)
{
    uint64_t top = 0;
    for (unsigned w = 0; w < ways; w++)
        top = s->stamp[w] > top ? s->stamp[w] : top;
    for (unsigned w = 0; top < 3 && w < ways; w++)
        s->stamp[w] += 3 - top;
}

/* The way a miss fills: the lowest invalid one, else the policy's victim. The valid ways are
 * 0 .. filled - 1 (gs_policy_predict), so the lowest invalid one is `filled`. */
static unsigned choose_victim(const set_state *s, gs_policy p, unsigned ways, unsigned filled)
{
    if (filled < ways)
        return filled;
    if (p == GS_POLICY_PLRU)
        return plru_victim(s->tree, ways);
    if (p == GS_POLICY_SRRIP)
        return srrip_victim(s, ways);
    if (gs_policy_segmented(p))
        return slru_victim(s, ways);
    unsigned v = 0;
    for (unsigned w = 1; w < ways; w++)
        if (s->stamp[w] < s->stamp[v])
            v = w;
    return v;
}

int gs_policy_predict(gs_policy p, unsigned protect, const uint32_t *blocks, size_t n,
                      unsigned ways, bool *hit)
{
    if (ways == 0 || ways >= CACHE_INFER_MAX_BLOCKS ||
        (p != GS_POLICY_LRU && p != GS_POLICY_FIFO && p != GS_POLICY_PLRU &&
         p != GS_POLICY_SRRIP && p != GS_POLICY_SLRU && p != GS_POLICY_HSLRU))
        return -1;
    if (p == GS_POLICY_PLRU && ((ways & (ways - 1)) || ways > 64))
        return -1;
    if (gs_policy_segmented(p) && (protect < 1 || protect >= ways))
        return -1;
    set_state s;
    memset(&s, 0, sizeof s);
    /* where each block is held (its way + 1, 0: absent), where the blocks are small enough to
       index a table by: a lookup is one load instead of a scan of the valid ways */
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = blocks[i] > top ? blocks[i] : top;
    uint16_t *where = top < PREDICT_TABLE_BLOCKS ? calloc((size_t)top + 1, sizeof *where) : NULL;
    /* valid ways: a way once valid stays valid, and a miss takes the lowest invalid way first
       (choose_victim), so the valid ways are ways 0 .. filled - 1 */
    unsigned filled = 0;
    for (size_t i = 0; i < n; i++) {
        int w = where ? (int)where[blocks[i]] - 1 : -1;
        for (unsigned k = 0; !where && k < filled && w < 0; k++)
            if (s.block[k] == blocks[i])
                w = (int)k;
        hit[i] = w >= 0;
        if (w < 0) {
            if (p == GS_POLICY_SRRIP && filled == ways)
                srrip_age(&s, ways);
            w = (int)choose_victim(&s, p, ways, filled);
            if (where && s.valid[w])
                where[s.block[w]] = 0;
            if (where)
                where[blocks[i]] = (uint16_t)(w + 1);
            filled += !s.valid[w];
            s.valid[w] = true;
            s.block[w] = blocks[i];
            s.stamp[w] = p == GS_POLICY_SRRIP ? 2 : 2 * (i + 1);   /* odd: SLRU's demoted */
            s.prot[w] = false;
        } else if (p == GS_POLICY_LRU) {
            s.stamp[w] = 2 * (i + 1);
        } else if (p == GS_POLICY_SLRU) {
            s.stamp[w] = 2 * (i + 1);
            if (!s.prot[w])
                slru_protect(&s, ways, protect, (unsigned)w, 2 * (i + 1) - 1);
        } else if (p == GS_POLICY_HSLRU) {
            s.stamp[w] = 2 * (i + 1);
            hslru_hit(&s, protect, (unsigned)w, 2 * (i + 1) - 1);
        } else if (p == GS_POLICY_SRRIP) {
            s.stamp[w] = 0;
        }
        if (p == GS_POLICY_PLRU)
            plru_touch(&s.tree, ways, (unsigned)w);
    }
    free(where);
    return 0;
}

double gs_policy_mismatch(gs_policy p, unsigned protect, const uint32_t *blocks, const bool *miss,
                          size_t n, unsigned ways)
{
    if (n == 0)
        return 1;
    bool *hit = malloc(n * sizeof *hit);
    if (!hit || gs_policy_predict(p, protect, blocks, n, ways, hit)) {
        free(hit);
        return 1;
    }
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += hit[i] == miss[i];
    free(hit);
    return (double)wrong / (double)n;
}

/* ---- victims ------------------------------------------------------------------------------------- */

/* Victims of a cyclic walk over ways + 1 blocks (blocks are small integers). After the cold fill
 * exactly one block is absent. A miss on it fills it (it becomes `pending`); the next miss on
 * another present block names the victim of that fill: the pending block took its way, and the
 * missing block now fills in turn. Misses on present blocks while nothing is pending are noise. */
size_t gs_miss_period(const bool *miss, size_t n, size_t max_period, double tolerance)
{
    size_t start = n / 2;
    for (size_t p = 1; p <= max_period && start + 4 * p <= n; p++) {
        size_t differ = 0, steps = n - start - p;
        for (size_t i = start; i + p < n; i++)
            differ += miss[i] != miss[i + p];
        if ((double)differ <= tolerance * (double)steps)
            return p;
    }
    return 0;
}

long gs_victim_way_counts(const uint32_t *blocks, const bool *miss, size_t n, unsigned ways,
                          uint64_t *counts)
{
    if (ways == 0 || ways + 1 > CACHE_INFER_MAX_BLOCKS || !blocks || !miss)
        return -1;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = blocks[i] > top ? blocks[i] : top;
    if (top != ways)
        return -1;
    int way_of[CACHE_INFER_MAX_BLOCKS];
    for (unsigned k = 0; k <= ways; k++)
        way_of[k] = -1;
    memset(counts, 0, ways * sizeof *counts);
    unsigned filled = 0;
    long absent = -1, pending = -1, victims = 0;
    for (size_t i = 0; i < n; i++) {
        if (!miss[i])
            continue;
        long b = blocks[i];
        if (filled < ways) {                       /* cold fill: empty ways lowest first */
            if (way_of[b] < 0)
                way_of[b] = (int)filled++;
            for (unsigned k = 0; filled == ways && k <= ways; k++)
                if (way_of[k] < 0)
                    absent = k;
        } else if (pending < 0) {
            if (b == absent) {
                pending = b;
                absent = -1;
            }
        } else if (b != pending && way_of[b] >= 0) {
            counts[way_of[b]]++;
            victims++;
            way_of[pending] = way_of[b];
            way_of[b] = -1;
            pending = b;
        }
    }
    return victims;
}

/* Upper tail of the chi-square distribution with k degrees of freedom (Wilson-Hilferty). */
static double chi2_upper_tail(double x, unsigned k)
{
    double z = (cbrt(x / k) - (1 - 2.0 / (9 * k))) / sqrt(2.0 / (9 * k));
    return 0.5 * erfc(z / sqrt(2.0));
}

bool gs_counts_uniform(const uint64_t *counts, unsigned k)
{
    if (k < 2)
        return true;
    double total = 0;
    for (unsigned i = 0; i < k; i++)
        total += (double)counts[i];
    if (total <= 0)
        return true;
    double expect = total / k, x2 = 0;
    for (unsigned i = 0; i < k; i++)
        x2 += ((double)counts[i] - expect) * ((double)counts[i] - expect) / expect;
    return chi2_upper_tail(x2, k - 1) > 1e-4;
}

/* ---- mapping ------------------------------------------------------------------------------------ */

uint64_t gs_bit_select_line(uint64_t size_bytes, unsigned index_bits, unsigned lowest_index_bit,
                            unsigned ways, uint64_t min_line_bytes)
{
    if (ways == 0 || index_bits >= 40 || size_bytes == 0)
        return 0;
    uint64_t sets = 1ull << index_bits;
    if (size_bytes % (sets * ways))
        return 0;
    uint64_t line = size_bytes / (sets * ways);
    if (line & (line - 1) || line < min_line_bytes)
        return 0;
    if (index_bits > 0 && lowest_index_bit < 63 && line > (1ull << lowest_index_bit))
        return 0;
    return line;
}

/* ---- average-mode cross-checks ---------------------------------------------------------------- */

bool gs_sizes_consistent(uint64_t fine_bytes, uint64_t avg_bytes, uint64_t resolution_bytes)
{
    uint64_t d = fine_bytes > avg_bytes ? fine_bytes - avg_bytes : avg_bytes - fine_bytes;
    uint64_t allow = 2 * resolution_bytes > avg_bytes / 8 ? 2 * resolution_bytes : avg_bytes / 8;
    return fine_bytes && avg_bytes && d <= allow;
}

uint64_t gs_fetch_from_strides(const uint64_t *stride_bytes, const double *avg_cycles, size_t n,
                               double tolerance)
{
    if (n < 3 || !(tolerance > 0))
        return 0;
    for (size_t i = 1; i + 1 < n; i++) {
        double a = avg_cycles[i];
        bool flat = isfinite(a) && a > 0;
        for (size_t k = i + 1; k < n && flat; k++)
            flat = isfinite(avg_cycles[k]) && fabs(avg_cycles[k] - a) <= tolerance * a;
        if (flat)
            return avg_cycles[0] < a * (1 - tolerance) ? stride_bytes[i] : 0;
    }
    return 0;
}

uint64_t gs_sector_from_fetch(uint64_t fetch_bytes, uint64_t unit_bytes)
{
    return fetch_bytes && fetch_bytes == unit_bytes ? fetch_bytes : 0;
}
