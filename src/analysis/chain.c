/* Chain builders (chain.h): stride walks and Sattolo single-cycle random walks. */
#include "analysis/chain.h"

#include <stdlib.h>

#include "util/u64set.h"

int gs_chain_stride(uint64_t count, uint64_t stride_bytes, uint64_t *out)
{
    if (count == 0 || stride_bytes == 0 || count - 1 > UINT64_MAX / stride_bytes)
        return -1;
    for (uint64_t i = 0; i < count; i++)
        out[i] = i * stride_bytes;
    return 0;
}

#define SATTOLO_AHEAD 16      /* swaps whose j is drawn early, so that next[j] is fetched in time */
#define FOLLOW_SEGMENT 4096u  /* a splitter every this many elements (a power of two) */
#define FOLLOW_LANES 16       /* segments of the cycle followed at once */

/* Sattolo's algorithm: next[] becomes one cycle through all count elements by swapping next[i]
 * with next[j], j < i drawn in the order i = count - 1 .. 1. The draws do not depend on next[],
 * so each j is drawn SATTOLO_AHEAD swaps early and next[j] prefetched: the same draws in the same
 * order, without waiting on memory at each swap. */
static void sattolo_shuffle(gs_rng *r, uint32_t *next, uint64_t count)
{
    uint64_t ahead[SATTOLO_AHEAD], drawn = count - 1;   /* drawn: the next i to draw a j for */
    for (uint64_t i = 0; i < count; i++)
        next[i] = (uint32_t)i;
    for (uint64_t i = count - 1; i > 0; i--) {
        for (; drawn > 0 && drawn + SATTOLO_AHEAD > i; drawn--) {
            ahead[drawn % SATTOLO_AHEAD] = gs_rng_below(r, drawn);   /* j < i: not Fisher-Yates */
            __builtin_prefetch(&next[ahead[drawn % SATTOLO_AHEAD]], 1);
        }
        uint64_t j = ahead[i % SATTOLO_AHEAD];
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

/* Following the cycle is one long chain of dependent loads. Elements that are multiples of
 * FOLLOW_SEGMENT split it into segments, followed FOLLOW_LANES at a time so that their loads
 * overlap. Segment k starts at splitter k * FOLLOW_SEGMENT and ends before the next splitter;
 * with out == NULL this counts each segment's length into len[k] and its next splitter's index
 * into succ[k], else it writes the segment's offsets from out[start[k]] on. */
static void follow_segments(const uint32_t *next, uint64_t count, uint64_t stride_bytes,
                            uint64_t *len, uint64_t *succ, const uint64_t *start, uint64_t *out)
{
    uint64_t segments = (count + FOLLOW_SEGMENT - 1) / FOLLOW_SEGMENT, taken = 0;
    uint64_t seg[FOLLOW_LANES], e[FOLLOW_LANES], t[FOLLOW_LANES];
    unsigned active = 0;
    for (;;) {
        while (active < FOLLOW_LANES && taken < segments) {
            seg[active] = taken;
            e[active] = taken++ * FOLLOW_SEGMENT;
            t[active++] = 0;
        }
        if (active == 0)
            return;
        for (unsigned l = 0; l < active; l++) {
            if (out)
                out[start[seg[l]] + t[l]] = e[l] * stride_bytes;
            t[l]++;
            e[l] = next[e[l]];
            if (e[l] % FOLLOW_SEGMENT)
                continue;
            if (!out) {
                len[seg[l]] = t[l];
                succ[seg[l]] = e[l] / FOLLOW_SEGMENT;
            }
            active--;                    /* this lane's segment is done: the last lane moves in */
            seg[l] = seg[active], e[l] = e[active], t[l] = t[active];
            l--;
        }
    }
}

/* The chain: the cycle followed from element 0, segment by segment in the cycle's order. */
static int follow_cycle(const uint32_t *next, uint64_t count, uint64_t stride_bytes,
                        uint64_t *out)
{
    uint64_t segments = (count + FOLLOW_SEGMENT - 1) / FOLLOW_SEGMENT;
    uint64_t *len = malloc(3 * segments * sizeof *len);
    if (!len)
        return -1;
    uint64_t *succ = len + segments, *start = succ + segments;
    follow_segments(next, count, stride_bytes, len, succ, NULL, NULL);
    uint64_t at = 0, k = 0;
    do {
        start[k] = at;
        at += len[k];
        k = succ[k];
    } while (k != 0);
    follow_segments(next, count, stride_bytes, NULL, NULL, start, out);
    free(len);
    return 0;
}

int gs_chain_sattolo(gs_rng *r, uint64_t count, uint64_t stride_bytes, uint64_t *out)
{
    if (count == 0 || stride_bytes == 0 || count - 1 > UINT64_MAX / stride_bytes ||
        count > UINT32_MAX)
        return -1;
    uint32_t *next = malloc(count * sizeof *next);
    if (!next)
        return -1;
    sattolo_shuffle(r, next, count);
    int rc = follow_cycle(next, count, stride_bytes, out);
    free(next);
    return rc;
}

int gs_chain_valid(const uint64_t *chain, size_t n, unsigned element_bytes,
                   uint64_t footprint_bytes)
{
    if (n == 0 || element_bytes == 0)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = chain[i] % element_bytes == 0 && chain[i] + element_bytes <= footprint_bytes;
    return ok && gs_u64_repeats(chain, n) == 0;
}
