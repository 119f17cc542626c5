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

#define SHUFFLE_AHEAD 16   /* swaps whose j is drawn early, so that idx[j] is fetched in time */

/* The chain of a uniformly random cyclic permutation followed from element 0: element 0, then
 * the other count - 1 in a uniformly random order. Each cycle through all elements is one such
 * order read from 0 (its successor of 0, that one's successor, ...) and each order one cycle, so
 * a uniform order is a uniform cycle, as Sattolo's algorithm draws it, without following the
 * cycle's dependent loads afterwards. The order is Durstenfeld's shuffle of idx[1 .. count - 1]:
 * for i = count - 1 .. 2, idx[i] swapped with idx[j], j uniform in 1 .. i, after which place i
 * never changes again, so its offset is written out at once (idx[i] itself is not kept). The
 * draws do not depend on idx[], so each j is drawn SHUFFLE_AHEAD swaps early (the swap at i draws
 * the j of i - SHUFFLE_AHEAD, into the place its own j leaves) and idx[j] prefetched: the same
 * draws in the same order, without waiting on memory at each swap. */
static void draw_ahead(gs_rng *r, uint64_t *ahead, const uint32_t *idx, uint64_t i)
{
    uint64_t j = 1 + gs_rng_below(r, i);
    ahead[i % SHUFFLE_AHEAD] = j;
    __builtin_prefetch(&idx[j], 1);
}

static void shuffle_after_first(gs_rng *r, uint32_t *idx, uint64_t count, uint64_t stride_bytes,
                                uint64_t *out)
{
    uint64_t ahead[SHUFFLE_AHEAD], i = count - 1, drawn;   /* drawn: the next i to draw a j for */
    for (uint64_t k = 0; k < count; k++)
        idx[k] = (uint32_t)k;
    for (drawn = i; drawn > 1 && drawn + SHUFFLE_AHEAD > i; drawn--)
        draw_ahead(r, ahead, idx, drawn);
    for (; drawn > 1; i--, drawn--) {            /* drawn == i - SHUFFLE_AHEAD */
        uint64_t j = ahead[i % SHUFFLE_AHEAD];
        out[i] = idx[j] * stride_bytes;
        idx[j] = idx[i];
        draw_ahead(r, ahead, idx, drawn);
    }
    for (; i > 1; i--) {
        uint64_t j = ahead[i % SHUFFLE_AHEAD];
        out[i] = idx[j] * stride_bytes;
        idx[j] = idx[i];
    }
    if (count > 1)                               /* place 1, final after the last swap; 0 */
        out[1] = idx[1] * stride_bytes;
    out[0] = idx[0] * stride_bytes;
}

int gs_chain_sattolo(gs_rng *r, uint64_t count, uint64_t stride_bytes, uint64_t *out)
{
    if (count == 0 || stride_bytes == 0 || count - 1 > UINT64_MAX / stride_bytes ||
        count > UINT32_MAX)
        return -1;
    uint32_t *idx = malloc(count * sizeof *idx);
    if (!idx)
        return -1;
    /* the draws from a local copy of the generator, put back after (the same draws): the
       offsets written out could otherwise be the generator's state, read again after each */
    gs_rng local = *r;
    shuffle_after_first(&local, idx, count, stride_bytes, out);
    *r = local;
    free(idx);
    return 0;
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
