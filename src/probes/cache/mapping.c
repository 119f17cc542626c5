/* Set mapping (memory-hierarchy paper, section 3.2 (3), Fig. 12): the set-index bits, from moving
 * one block of a conflicting group by 2^k, and the bit-select hypothesis they imply: ways from a
 * stride walk that stays in one set, line = C / (2^bits x ways), tested on random blocks that
 * agree on the index bits (the texture L1's bits 7-8, a fully associative TLB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/cache/internal.h"

/* Move the group's added block by 2^k: if the conflict goes, bit k selects the set. */
int cw_index_bits(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m, gs_error *err)
{
    bool c;
    memcpy(w->chain2, group, m * sizeof *group);
    int rc = cw_group_conflict(w, w->chain2, m, &c, err);
    if (rc || !c) {
        snprintf(lv->why_structure, sizeof lv->why_structure,
                 "the blocks that missed past capacity do not conflict on their own");
        return rc;
    }
    unsigned kmax = log2_floor(lv->size_bytes) + 2;
    lv->nindex = 0;
    for (unsigned k = log2_floor(w->elem); k <= kmax && !rc; k++) {
        if (group[m - 1] + (1ull << k) + w->elem > w->bound)
            break;                       /* beyond the space (the constant bank, say) */
        /* a move onto another member (or, on a TLB walk, onto its word of the aliased memory)
         * would visit one place twice: the H100's first TLB level at seed 2, whose fine-grained
         * walk read a junk level of a few hundred bytes, moved the last of blocks 256 B apart by
         * 256 B onto the next ("the elements at offsets 512 and 512 land on one physical
         * word", and the TLB target stopped). Such a bit is not tested. */
        uint64_t moved = group[m - 1] + (1ull << k);
        bool onto = false;
        for (size_t i = 0; i + 1 < m && !onto; i++)
            onto = group[i] == moved ||
                   (w->tlb && group[i] % CW_ALIAS_PERIOD == moved % CW_ALIAS_PERIOD);
        if (onto)
            continue;
        memcpy(w->chain2, group, m * sizeof *group);
        w->chain2[m - 1] = moved;
        rc = cw_group_conflict(w, w->chain2, m, &c, err);
        if (!rc && !c && lv->nindex < 64)
            lv->index_bits[lv->nindex++] = k;
    }
    return rc;
}

/* Most blocks at stride S that fit together (all in one set for a bit-select mapping). */
static int stride_fits(cw_walker *w, uint64_t n, uint64_t stride_bytes, bool *ok, gs_error *err)
{
    cw_stride_chain(w, n, stride_bytes, w->chain2);
    bool c;
    int rc = cw_group_conflict(w, w->chain2, n, &c, err);
    *ok = !c;
    return rc;
}

static int stride_ways(cw_walker *w, uint64_t stride_bytes, uint64_t n_max, unsigned *ways,
                       gs_error *err)
{
    uint64_t lo = 0, hi = 1;
    bool ok = true;
    int rc = 0;
    uint64_t top = n_max + 1 < w->cap / 2 ? n_max + 1 : w->cap / 2;
    if (top > w->bound / stride_bytes)
        top = w->bound / stride_bytes;
    while (!rc && lo < top) {
        rc = stride_fits(w, hi, stride_bytes, &ok, err);
        if (rc || !ok)
            break;
        lo = hi;
        hi = 2 * hi < top ? 2 * hi : top;
    }
    if (rc || ok) {
        *ways = 0;
        return rc;
    }
    while (!rc && hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        rc = stride_fits(w, mid, stride_bytes, &ok, err);
        if (ok)
            lo = mid;
        else
            hi = mid;
    }
    *ways = (unsigned)lo;
    return rc;
}

/* The bit-select hypothesis predicts that any ways + 1 distinct blocks agreeing on the index bits
 * conflict and any ways of them fit: test it on blocks with random other bits. */
static int verify_bit_select(cw_walker *w, const cw_level *lv, uint64_t line, unsigned ways,
                             bool *holds, gs_error *err)
{
    unsigned top = log2_floor(lv->size_bytes) + 3;
    if (lv->nindex && lv->index_bits[lv->nindex - 1] + 3 > top)
        top = lv->index_bits[lv->nindex - 1] + 3;
    if (top > log2_floor(w->bound))
        top = log2_floor(w->bound);
    uint64_t mask = 0, *b = malloc((ways + 1) * sizeof *b);
    if (!b)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (size_t i = 0; i < lv->nindex; i++)
        mask |= 1ull << lv->index_bits[i];
    size_t n = 0;
    for (unsigned tries = 0; n < ways + 1 && tries < 64 * (ways + 1); tries++) {
        uint64_t a = (gs_rng_below(&w->rng, 1ull << top) & ~(line - 1)) & ~mask;
        /* distinct blocks, and for a TLB walk each staggered to a word of its own, distinct
         * modulo the aliased period: with a "line" of a few words (a junk level of a few
         * hundred bytes, as H100 TLB walks read) the stagger could make two blocks one,
         * b[0] = 512 and b[1] = 504 + 8 */
        uint64_t at = w->tlb ? a + n * w->elem : a;
        bool dup = false;
        for (size_t i = 0; i < n && !dup; i++) {
            uint64_t base = w->tlb ? b[i] - i * w->elem : b[i];
            dup = base / line == a / line ||
                  (w->tlb && b[i] % CW_ALIAS_PERIOD == at % CW_ALIAS_PERIOD);
        }
        if (!dup)
            b[n++] = at;
    }
    bool over = false, under = true;
    int rc = n == ways + 1 ? cw_group_conflict(w, b, n, &over, err) : 0;
    if (!rc && over)
        rc = cw_group_conflict(w, b, ways, &under, err);
    *holds = over && !under;
    free(b);
    return rc;
}

/* Bit-select hypothesis: index bits I, ways W from a stride of 2^(max I + 1), line = C/(2^|I| W). */
int cw_try_bit_select(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                      gs_error *err)
{
    unsigned top = lv->nindex ? lv->index_bits[lv->nindex - 1] + 1 : log2_floor(lv->size_bytes);
    if (lv->nindex == 0 && (1ull << top) < lv->size_bytes)
        top++;
    uint64_t stride = 1ull << top, unit = lv->fetch_bytes > w->elem ? lv->fetch_bytes : w->elem;
    uint64_t n_max = lv->size_bytes / ((1ull << lv->nindex) * unit) + 1;
    unsigned ways = 0;
    int rc = stride_ways(w, stride, n_max, &ways, err);
    gs_progress(w->ctx, "cache:   %zu index bits (lowest %u), %u blocks fit at stride %llu B",
                lv->nindex, lv->nindex ? lv->index_bits[0] : 0, ways,
                (unsigned long long)stride);
    if (rc || ways == 0 || ways + 1 > w->cap / 2)
        return rc;
    uint64_t line = gs_bit_select_line(lv->size_bytes, (unsigned)lv->nindex,
                                       lv->nindex ? lv->index_bits[0] : 63, ways, unit);
    bool holds = false;
    if (line)
        rc = verify_bit_select(w, lv, line, ways, &holds, err);
    if (rc || !holds)
        return rc;
    lv->line_bytes = line;
    lv->line_method = "capacity / (2^index bits x ways of a stride walk that stays in one set)";
    lv->sets = 1u << lv->nindex;
    lv->ways_per_set[0] = ways;
    lv->nsets = 1;
    lv->sets_method = "2^(index bits); ways: most blocks at stride 2^(top index bit + 1) that fit";
    lv->mapping = CW_MAP_BITS;
    cw_stride_chain(w, ways + 1, stride, group);
    *ngroup = ways + 1;
    return 0;
}
