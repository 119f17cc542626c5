/* The measuring half of the `cache` probe (cache_walk.h): chase plans on one path and the steps of
 * section 3.2 of the memory-hierarchy paper that turn their traces into one level's structure.
 * Every verdict comes from src/analysis/cache_infer.c; this file only chooses chains. */
#include "probes/cache_walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/interrupt.h"

/* Physical memory behind TLB walks (gs_chase_plan.physical_bytes): virtual pages alias it, so a
 * walk over gigabytes keeps its data in 16 lines of the data caches, all below address bit 12
 * (one L2 partition, one DRAM row). A backend may round it up to its mapping granularity (2 MB
 * with CUDA's VMM). */
#define CW_ALIAS_BYTES (4ull << 10)
#define CW_ALIAS_PERIOD (2ull << 20)   /* see stagger */
#define CW_OVERFLOW_STEPS 64
#define CW_AVG_ALIAS_BYTES (64ull << 20)      /* blocks added past capacity, at most, to list the sets */

static unsigned log2_floor(uint64_t x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* ---- chases -------------------------------------------------------------------------------------- */

static int chase(cw_walker *w, const uint64_t *chain, size_t len, unsigned warmup, size_t record,
                 size_t *got, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t top = 0;
    for (size_t i = 0; i < len; i++)
        top = chain[i] > top ? chain[i] : top;
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = top + w->elem,
                       .chain = chain, .chain_len = len, .element_bytes = w->elem,
                       .warmup_passes = warmup, .record_n = record < w->cap ? record : w->cap,
                       .carveout_percent = w->carveout, .smem_bytes = w->smem_bytes};
    if (w->tlb && p.footprint_bytes > CW_ALIAS_BYTES)
        p.physical_bytes = CW_ALIAS_BYTES;
    gs_chase_result r = {.latency_cycles = w->lat, .record_capacity = w->cap};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *got = rc ? 0 : r.recorded;
    return rc;
}

/* TLB walks alias physical memory, and a backend may round physical_bytes up to its mapping
 * granularity (at most CW_ALIAS_PERIOD): every element needs a word of its own modulo that period.
 * Element j of a stride-s walk moves by elem x ((j / (period / s)) mod (s / elem)) inside its own
 * stride slot: elements that would share a word modulo the period get different words, and the
 * lines behind the pages spread over the data caches' sets. */
static uint64_t stagger(const cw_walker *w, uint64_t j, uint64_t stride_bytes)
{
    if (!w->tlb || stride_bytes < 2 * w->elem)
        return 0;
    uint64_t wrap = CW_ALIAS_PERIOD / stride_bytes;
    return w->elem * ((wrap > 1 ? j / wrap : j) % (stride_bytes / w->elem));
}

static void stride_chain(const cw_walker *w, uint64_t n, uint64_t stride_bytes, uint64_t *out)
{
    for (uint64_t j = 0; j < n; j++)
        out[j] = j * stride_bytes + stagger(w, j, stride_bytes);
}

/* Stride of a sweep chain over footprint F: the element (or, below a first level, that level's
 * block, so that every access misses it), doubled until two passes fit the trace. */
static uint64_t sweep_stride(const cw_walker *w, uint64_t footprint_bytes)
{
    uint64_t s = w->min_stride > w->elem ? w->min_stride : w->elem;
    while (footprint_bytes / s > w->cap / 2)
        s *= 2;
    return s;
}

/* Below a first level (depth >= 1) a group of no more blocks than that level's ways would hit in
 * it and never reach the level under study, so each member brings k fillers that share its
 * first-level set, filler_margin times as many as it holds (2 where its mapping is not a bit
 * selection, to overflow every set): member + (i k + j) x (first level's set span), j = 1..k
 * for member i, so that each filler is a first-level block of its own that lands alone in a set
 * of the level under study, or (a TLB entry covering many pages) inside the member's own entry.
 * Writes the chain into out and each entry's member index into member_of (may be NULL). */
static size_t with_fillers(const cw_walker *w, const uint64_t *members, size_t m, uint64_t *out,
                           uint32_t *member_of)
{
    size_t k = 0, n = 0;
    uint64_t need = w->filler_margin * w->prev_ways;
    if (need && m && m <= need)
        k = (need + m) / m - 1;
    for (size_t i = 0; i < m && n + k + 1 <= w->cap / 2; i++)
        for (size_t j = 0; j <= k; j++) {
            if (member_of)
                member_of[n] = (uint32_t)i;
            size_t step = j == 0 ? 0 : i * k + j;
            out[n++] = members[i] + step * w->filler_step + (w->tlb ? j * m * w->elem : 0);
        }
    return n;
}

/* Steady-state verdict on a chain (len <= cap / 2): warm up twice, record up to 16 passes; a
 * conflict is confirmed by a second trace (gs_trace_conflict_confirmed). The first trace stays in
 * w->lat, its length in *got. */
static int conflict_got(cw_walker *w, const uint64_t *chain, size_t len, bool *yes, size_t *got,
                        gs_error *err)
{
    size_t passes = len ? w->cap / len : 0, got2 = 0;
    passes = passes > 16 ? 16 : passes < 1 ? 1 : passes;
    int rc = chase(w, chain, len, 2, passes * len, got, err);
    *yes = !rc && gs_trace_conflict(w->lat, *got, len, &w->band);
    if (rc || !*yes)
        return rc;
    uint32_t *first = malloc(*got * sizeof *first);
    if (!first)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    memcpy(first, w->lat, *got * sizeof *first);
    rc = chase(w, chain, len, 2, passes * len, &got2, err);
    *yes = !rc && gs_trace_conflict_confirmed(first, *got, w->lat, got2, len, &w->band);
    memcpy(w->lat, first, *got * sizeof *first);
    free(first);
    return rc;
}

static int conflict(cw_walker *w, const uint64_t *chain, size_t len, bool *yes, gs_error *err)
{
    size_t got;
    return conflict_got(w, chain, len, yes, &got, err);
}

/* Conflict verdict on a group of blocks (with fillers below a first level). */
static int group_conflict(cw_walker *w, const uint64_t *members, size_t m, bool *yes,
                          gs_error *err)
{
    uint64_t *chain = malloc(w->cap * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t n = with_fillers(w, members, m, chain, NULL);
    int rc = conflict(w, chain, n, yes, err);
    free(chain);
    return rc;
}

static int learn_band(cw_walker *w, const uint64_t *chain, size_t len, gs_error *err)
{
    size_t got, record = len * 64 > 4096 ? len * 64 : 4096;
    int rc = chase(w, chain, len, 2, record, &got, err);
    if (!rc && gs_hit_band_from_trace(w->lat, got, &w->band))
        rc = gs_fail(err, GS_ERR_PROBE, "cache: the reference trace has only %zu entries", got);
    return rc;
}

int cw_walker_set_smem(cw_walker *w, uint64_t smem_bytes, gs_error *err)
{
    uint32_t one[1];
    uint64_t zero[1] = {0};
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = w->elem,
                       .chain = zero, .chain_len = 1, .element_bytes = w->elem, .record_n = 1,
                       .carveout_percent = w->carveout, .smem_bytes = smem_bytes};
    gs_chase_result r = {.latency_cycles = one};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    if (rc)
        return rc;
    if (r.record_capacity < 256)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "cache: the trace buffer holds %zu entries in %llu "
                       "B of shared memory; the inference needs at least 256", r.record_capacity,
                       (unsigned long long)smem_bytes);
    free(w->lat), free(w->chain), free(w->chain2);
    w->smem_bytes = smem_bytes;
    w->cap = r.record_capacity;
    w->lat = malloc(w->cap * sizeof *w->lat);
    w->chain = malloc(w->cap * sizeof *w->chain);
    w->chain2 = malloc(w->cap * sizeof *w->chain2);
    if (!w->lat || !w->chain || !w->chain2) {
        cw_walker_free(w);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %zu trace entries", w->cap);
    }
    return 0;
}

int cw_walker_init(cw_walker *w, gs_probe_ctx *ctx, gs_space space, gs_load_path path, bool tlb,
                   gs_error *err)
{
    memset(w, 0, sizeof *w);
    /* TLB walks span more than 4 GB: 8-byte elements hold their offsets */
    *w = (cw_walker){.ctx = ctx, .space = space, .path = path, .tlb = tlb, .elem = tlb ? 8 : 4,
                     .bound = UINT64_MAX, .carveout = -1};
    gs_rng_seed(&w->rng, ctx->seed ^ 0xcace5eedull);
    uint64_t optin = ctx->info->smem_per_block_optin_bytes ? ctx->info->smem_per_block_optin_bytes
                                                           : ctx->info->smem_per_block_bytes;
    uint64_t budget = optin / 2 / 16 * 16;
    return cw_walker_set_smem(w, budget && budget < CW_TRACE_SMEM ? budget : CW_TRACE_SMEM, err);
}

void cw_walker_free(cw_walker *w)
{
    free(w->lat);
    free(w->chain);
    free(w->chain2);
    w->lat = NULL;
    w->chain = w->chain2 = NULL;
}

/* ---- capacity (section 3.2 (1)) --------------------------------------------------------------- */

/* A slow position of a data-cache sweep is a capacity miss only if it turns fast when the data
 * shrinks: chased again with a pseudo-random 64th of the other elements (a 64th of the pressure
 * on every set, nearly the same pages), an access that stays slow in three such subsets is a slow
 * hit (a far L2 partition, a TLB miss), so the band widens to hold it and the trace is judged
 * again. TLB walks keep their band (their data is aliased into a few lines instead). */
static int slow_alone(cw_walker *w, const uint64_t *chain, size_t len, size_t pos,
                      uint64_t salt, uint64_t *sub, double *latency, gs_error *err)
{
    size_t n = 0, at = 0, got;
    for (size_t i = 0; i < len; i++)
        if (i == pos || (((i ^ salt) * 0x9e3779b97f4a7c15ull) >> 58) == 0) {
            at = i == pos ? n : at;
            sub[n++] = chain[i];
        }
    size_t passes = w->cap / n > 16 ? 16 : w->cap / n;
    int rc = chase(w, sub, n, 2, passes * n, &got, err);
    for (size_t p = 0; !rc && p < passes; p++)
        w->lat[p] = w->lat[p * n + at];
    *latency = rc ? 0 : gs_median_u32(w->lat, passes);
    return rc;
}

static int refine_band(cw_walker *w, const uint64_t *chain, size_t len, size_t got, bool *yes,
                       gs_error *err)
{
    if (w->tlb || len < 64)
        return 0;
    uint32_t *trace = malloc(got * sizeof *trace), *counts = malloc(len * sizeof *counts);
    uint64_t *sub = malloc(len * sizeof *sub);
    int rc = trace && counts && sub ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (!rc)
        memcpy(trace, w->lat, got * sizeof *trace);
    for (int round = 0; round < 4 && *yes && !rc; round++) {
        gs_trace_miss_counts(trace, got, len, w->band.threshold_cycles, counts);
        size_t pos = 0;
        for (size_t i = 1; i < len; i++)
            pos = counts[i] > counts[pos] ? i : pos;
        double alone = INFINITY, one;
        for (uint64_t salt = 1; salt <= 3 && !rc; salt++) {
            rc = slow_alone(w, chain, len, pos, salt * 7919, sub, &one, err);
            alone = one < alone ? one : alone;
        }
        if (rc || !(alone > w->band.threshold_cycles))
            break;
        w->band.threshold_cycles = alone + (w->band.threshold_cycles - w->band.hit_cycles);
        *yes = gs_trace_conflict(trace, got, len, &w->band);
    }
    free(trace), free(counts), free(sub);
    return rc;
}

static int fits(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, bool *ok,
                gs_error *err)
{
    uint64_t n = footprint_bytes / stride_bytes;
    stride_chain(w, n, stride_bytes, w->chain);
    size_t got;
    bool c;
    int rc = conflict_got(w, w->chain, n, &c, &got, err);
    if (!rc && c)
        rc = refine_band(w, w->chain, n, got, &c, err);
    *ok = !c;
    return rc;
}

/* Double from start until a conflict, then bisect in steps of the sweep stride. lo fits. */
static int find_capacity(cw_walker *w, uint64_t lo, uint64_t start, uint64_t bound,
                         cw_level *lv, gs_error *err)
{
    uint64_t hi = start;
    bool ok = true;
    int rc = 0;
    while (!rc && hi <= bound) {
        rc = fits(w, hi, sweep_stride(w, hi), &ok, err);
        if (rc || !ok)
            break;
        lo = hi;
        hi *= 2;
    }
    if (rc)
        return rc;
    if (ok) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "no capacity miss up to %llu B",
                 (unsigned long long)bound);
        return 0;
    }
    uint64_t s = sweep_stride(w, hi);
    while (!rc && hi - lo > s) {
        uint64_t mid = lo + (hi - lo) / 2 / s * s;
        rc = fits(w, mid, s, &ok, err);
        if (ok)
            lo = mid;
        else
            hi = mid;
    }
    lv->size_bytes = lo;
    return rc;
}

/* ---- overflow group, fetch granularity, set-index bits ----------------------------------------- */

/* Footprint one sweep stride past capacity: the missing positions are the blocks of the set that
 * overflowed (Fig. 3); the last element, the block added, is one of them. Fills group/ngroup. */
static int overflow_group(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                          gs_error *err)
{
    uint64_t s = sweep_stride(w, lv->size_bytes + sweep_stride(w, lv->size_bytes));
    size_t len = lv->size_bytes / s + 1, got, passes = 0, misses = 0;
    stride_chain(w, len, s, w->chain);
    uint32_t *counts = calloc(len, sizeof *counts), *one = malloc(len * sizeof *one);
    uint32_t *miss_lat = malloc(w->cap * sizeof *miss_lat);
    if (!counts || !one || !miss_lat) {
        free(counts), free(one), free(miss_lat);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    }
    /* At least 64 steady-state passes, over several chases when one trace holds fewer, so that
     * under a random policy every block of the overflowing set misses more than once. */
    int rc = 0;
    for (unsigned c = 0; c < 64 && passes < 64 && !rc; c++) {
        size_t p = w->cap / len > 64 ? 64 : w->cap / len;
        rc = chase(w, w->chain, len, 2, p * len, &got, err);
        if (rc)
            break;
        passes += p;
        gs_trace_miss_counts(w->lat, got, len, w->band.threshold_cycles, one);
        for (size_t i = 0; i < len; i++)
            counts[i] += one[i];
        for (size_t i = 0; i < got && misses < w->cap; i++)
            if (w->lat[i] > w->band.threshold_cycles)
                miss_lat[misses++] = w->lat[i];
    }
    if (!rc) {
        lv->miss_cycles = gs_trace_miss_latency(miss_lat, misses, 0);
        unsigned min_misses = gs_systematic_misses(passes, w->band.outlier_rate, len);
        size_t m = 0;
        for (size_t i = 0; i < len; i++)
            m += counts[i] >= min_misses;
        lv->miss_n = m;
        *ngroup = 0;
        if (m > 0 && counts[len - 1] >= min_misses && m <= w->cap / 2)
            for (size_t i = 0; i < len; i++)
                if (counts[i] >= min_misses)
                    group[(*ngroup)++] = w->chain[i];
    }
    free(counts), free(one), free(miss_lat);
    return rc;
}

static int fetch_granularity(cw_walker *w, cw_level *lv, gs_error *err)
{
    size_t n = w->cap < 512 ? w->cap : 512, got;
    stride_chain(w, n, w->elem, w->chain);
    int rc = chase(w, w->chain, n, 0, n, &got, err);
    if (!rc)
        lv->fetch_bytes = gs_fetch_granularity(w->lat, got, w->elem, w->band.threshold_cycles);
    return rc;
}

/* Move the group's added block by 2^k: if the conflict goes, bit k selects the set. */
static int index_bits(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m, gs_error *err)
{
    bool c;
    memcpy(w->chain2, group, m * sizeof *group);
    int rc = group_conflict(w, w->chain2, m, &c, err);
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
        memcpy(w->chain2, group, m * sizeof *group);
        w->chain2[m - 1] = group[m - 1] + (1ull << k);
        rc = group_conflict(w, w->chain2, m, &c, err);
        if (!rc && !c && lv->nindex < 64)
            lv->index_bits[lv->nindex++] = k;
    }
    return rc;
}

/* ---- ways and sets ------------------------------------------------------------------------------ */

/* Most blocks at stride S that fit together (all in one set for a bit-select mapping). */
static int stride_fits(cw_walker *w, uint64_t n, uint64_t stride_bytes, bool *ok, gs_error *err)
{
    stride_chain(w, n, stride_bytes, w->chain2);
    bool c;
    int rc = group_conflict(w, w->chain2, n, &c, err);
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
        bool dup = false;
        for (size_t i = 0; i < n && !dup; i++)
            dup = b[i] == a;
        if (!dup)
            b[n++] = a;
    }
    for (size_t i = 0; w->tlb && i < n; i++)
        b[i] += i * w->elem;                                /* a word of its own (stagger) */
    bool over = false, under = true;
    int rc = n == ways + 1 ? group_conflict(w, b, n, &over, err) : 0;
    if (!rc && over)
        rc = group_conflict(w, b, ways, &under, err);
    *holds = over && !under;
    free(b);
    return rc;
}

/* Bit-select hypothesis: index bits I, ways W from a stride of 2^(max I + 1), line = C/(2^|I| W). */
static int try_bit_select(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
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
    stride_chain(w, ways + 1, stride, group);
    *ngroup = ways + 1;
    return 0;
}

/* Sets and mapping from the overflow steps: the whole list when every set overflowed, else
 * equal sets assumed from the first ones seen. */
static void classify_sets(cw_level *lv, uint64_t line, bool complete, int nsets, bool in_order)
{
    lv->line_bytes = line;
    lv->line_method = "2^(lowest address bit whose change moves a block out of its set)";
    if (nsets <= 0) {
        snprintf(lv->why_structure, sizeof lv->why_structure,
                 "missing blocks past capacity did not grow set by set");
        return;
    }
    if (complete) {
        lv->nsets = (size_t)nsets;
        lv->sets = (unsigned)nsets;
        lv->sets_method = "blocks added past capacity one by one: each set that overflows adds "
                          "its ways + 1 missing blocks (Fig. 11)";
    } else if (gs_ways_equal(lv->ways_per_set, (size_t)nsets) &&
               lv->size_bytes % (line * lv->ways_per_set[0]) == 0) {
        lv->nsets = 1;
        lv->sets = (unsigned)(lv->size_bytes / (line * lv->ways_per_set[0]));
        lv->sets_method = "ways from the first sets that overflowed past capacity; sets = "
                          "capacity / (line x ways), assuming equal sets";
    } else {
        snprintf(lv->why_structure, sizeof lv->why_structure, "%d sets seen with unequal ways in "
                 "%d blocks past capacity; the rest is beyond the trace", nsets,
                 CW_OVERFLOW_STEPS);
        return;
    }
    bool pow2 = (lv->sets & (lv->sets - 1)) == 0;
    lv->mapping = in_order && (!pow2 || !gs_ways_equal(lv->ways_per_set, lv->nsets))
                      ? CW_MAP_MODULO : CW_MAP_HASHED;
}

/* Missing distinct blocks as blocks are added past capacity one at a time (Fig. 11); the first
 * step's missing blocks (one overflowing set) become the group for the policy tests. */
static int overflow_sets(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                         gs_error *err)
{
    uint64_t line = 1ull << lv->index_bits[0], s = line;
    while (lv->size_bytes / s + CW_OVERFLOW_STEPS > w->cap / 2)
        s *= 2;
    uint64_t base = lv->size_bytes / s;
    size_t missing[CW_OVERFLOW_STEPS], *pos = malloc((base + CW_OVERFLOW_STEPS) * sizeof *pos);
    if (!pos)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    int rc = 0, nsets = 0;
    bool in_order = true, complete = false;
    for (size_t k = 1; k <= CW_OVERFLOW_STEPS && !rc && !complete; k++) {
        size_t len = base + k, got, passes = w->cap / len > 16 ? 16 : w->cap / len;
        stride_chain(w, len, s, w->chain);
        rc = chase(w, w->chain, len, 2, passes * len, &got, err);
        if (rc)
            break;
        unsigned min_misses = gs_systematic_misses(passes, w->band.outlier_rate, len);
        missing[k - 1] = gs_trace_missing_positions(w->lat, got, len, w->band.threshold_cycles,
                                                    min_misses, pos);
        for (size_t i = 0; k == 1 && i < missing[0] && i < w->cap / 2; i++)
            group[(*ngroup)++] = w->chain[pos[i]];
        if ((nsets = gs_overflow_sets(missing, k, lv->ways_per_set, CW_MAX_SETS)) < 0)
            break;
        in_order = in_order && (size_t)nsets == k;
        unsigned sum = 0;
        for (int i = 0; i < nsets; i++)
            sum += lv->ways_per_set[i];
        complete = s == line && sum == lv->size_bytes / line;
    }
    free(pos);
    if (!rc)
        classify_sets(lv, line, complete, nsets, in_order);
    return rc;
}

/* ---- replacement policy (section 3.2 (4), Fig. 8) --------------------------------------------- */

/* Policy chains start with a priming element d in block 0's line and then block 0 itself: the
 * first access of a cold chase may miss a TLB and leave the cache unfilled (Fermi's L1). If block
 * 0 then misses, d did not fill, and the analysis starts at block 0's access; else at d. */
static size_t analysis_start(const cw_walker *w, size_t got)
{
    return got > 1 && w->lat[1] > w->band.threshold_cycles ? 1 : 0;
}

/* A chase of chain (len entries) from cold; blocks[i] / miss[i] from the analysis start on. */
static int cold_trace(cw_walker *w, const uint64_t *chain, const uint32_t *block_of, size_t len,
                      uint32_t *blocks, bool *miss, size_t *n, gs_error *err)
{
    size_t got;
    int rc = chase(w, chain, len, 0, w->cap, &got, err);
    if (rc)
        return rc;
    size_t s = analysis_start(w, got);
    *n = got - s;
    for (size_t i = s; i < got; i++) {
        blocks[i - s] = block_of[i % len];
        miss[i - s] = w->lat[i] > w->band.threshold_cycles;
    }
    return 0;
}

static int policy_sequence(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                           bool *done, gs_error *err)
{
    size_t r = w->tlb ? 4 : lv->fetch_bytes >= 8 * w->elem ? 4 : 1;
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
        rc = cold_trace(w, w->chain2, block_of, len, blocks, miss, &n, err);
    }
    if (!rc) {
        static const gs_policy cands[] = {GS_POLICY_LRU, GS_POLICY_FIFO, GS_POLICY_PLRU};
        double best = 2, tol = 0.02 + 3 * w->band.outlier_rate;
        for (size_t c = 0; c < 3; c++) {
            double mm = gs_policy_mismatch(cands[c], blocks, miss, n, (unsigned)(m - 1));
            if (mm < best) {
                best = mm;
                lv->policy = cands[c];
            }
        }
        *done = best <= tol;
        lv->policy_n = n;
        lv->policy_method = "random sequence over ways + 1 blocks of one set, from cold: "
                            "observed misses equal the policy's predicted misses";
        if (!*done)
            lv->policy = GS_POLICY_UNKNOWN;
    }
    free(blocks), free(miss), free(order), free(block_of);
    return rc;
}

static void victim_shares(cw_level *lv, const uint32_t *blocks, const bool *miss, size_t n,
                          unsigned ways)
{
    uint64_t counts[CW_MAX_WAYS];
    long v = gs_victim_way_counts(blocks, miss, n, ways, counts);
    if (v < 20 * (long)ways) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "%ld victims seen in %zu accesses: too "
                 "few to estimate %u way probabilities", v, n, ways);
        return;
    }
    for (unsigned i = 0; i < ways; i++)
        lv->way_probabilities[i] = (double)counts[i] / (double)v;
    lv->nprob = ways;
    lv->policy_n = (size_t)v;
    lv->policy = gs_counts_uniform(counts, ways) ? GS_POLICY_RANDOM : GS_POLICY_WEIGHTED;
    lv->policy_method = "victim way of every miss of a cyclic walk over ways + 1 blocks of one "
                        "set (Fig. 8); chi-square test of equal shares";
}

static int policy_cyclic(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                         unsigned depth, gs_error *err)
{
    size_t len = 0, n = 0;
    uint32_t *blocks = malloc(w->cap * sizeof *blocks);
    uint32_t *block_of = malloc(w->cap * sizeof *block_of);
    bool *miss = malloc(w->cap * sizeof *miss);
    int rc = blocks && miss && block_of ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
    if (!rc) {
        w->chain2[0] = group[0] + (w->tlb ? (4 * m + 4) * w->elem : w->elem);  /* priming d */
        block_of[0] = 0;
        len = 1 + with_fillers(w, group, m, w->chain2 + 1, block_of + 1);
        rc = cold_trace(w, w->chain2, block_of, len, blocks, miss, &n, err);
    }
    unsigned ways = (unsigned)(m - 1);
    double tol = 0.02 + 3 * w->band.outlier_rate;
    if (!rc && depth > 0 && gs_policy_mismatch(GS_POLICY_LRU, blocks, miss, n, ways) <= tol) {
        lv->policy = GS_POLICY_LRU;
        lv->policy_n = n;
        lv->policy_method = "cyclic walk over ways + 1 blocks of one set behind a level that "
                            "filters re-use: every access misses, as LRU predicts (FIFO would "
                            "too)";
    } else if (!rc) {
        victim_shares(lv, blocks, miss, n, ways);
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
    int rc = depth == 0 ? policy_sequence(w, lv, group, m, &done, err) : 0;
    if (!rc && !done)
        rc = policy_cyclic(w, lv, group, m, depth, err);
    return rc;
}

/* ---- one level ---------------------------------------------------------------------------------- */

static int infer_structure(cw_walker *w, cw_level *lv, unsigned depth, gs_error *err)
{
    uint64_t *group = malloc(w->cap * sizeof *group);
    if (!group)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t m = 0;
    int rc = overflow_group(w, lv, group, &m, err);
    if (!rc && !w->tlb)
        rc = fetch_granularity(w, lv, err);
    if (!rc && m == 0)
        snprintf(lv->why_structure, sizeof lv->why_structure, "the block added past capacity "
                 "did not miss in the trace (or the set is larger than half the trace buffer)");
    if (!rc && m > 0)
        rc = index_bits(w, lv, group, m, err);
    if (!rc && m > 0 && !lv->why_structure[0])
        rc = try_bit_select(w, lv, group, &m, err);
    if (!rc && m > 0 && !lv->line_bytes && !lv->why_structure[0]) {
        if (lv->nindex == 0)
            snprintf(lv->why_structure, sizeof lv->why_structure, "no address bit moves a block "
                     "out of its set, yet no stride walk fits a bit-select geometry");
        else {
            m = 0;
            rc = overflow_sets(w, lv, group, &m, err);
        }
    }
    if (!rc && lv->nsets > 0)
        rc = cw_infer_policy(w, lv, group, m, depth, err);
    else if (!rc)
        snprintf(lv->why_policy, sizeof lv->why_policy, "the sets were not determined");
    free(group);
    return rc;
}

int cw_infer_level(cw_walker *w, unsigned depth, uint64_t prev_size_bytes,
                   uint64_t prev_block_bytes, uint64_t prev_span_bytes, uint64_t bound_bytes,
                   cw_level *lv, gs_error *err)
{
    w->filler_step = w->tlb ? prev_block_bytes : prev_span_bytes;
    w->min_stride = depth ? prev_block_bytes : 0;
    w->bound = bound_bytes;
    w->prev_ways = depth && prev_span_bytes ? prev_size_bytes / prev_span_bytes : 0;
    memset(lv, 0, sizeof *lv);
    lv->tlb = w->tlb;
    lv->miss_cycles = NAN;
    lv->trace_hit_cycles = NAN;
    lv->policy = GS_POLICY_UNKNOWN;
    lv->record_capacity = w->cap;
    lv->trace_smem_bytes = w->smem_bytes;
    lv->trace_carveout = w->carveout;
    w->chases = 0;
    uint64_t ref = depth == 0 ? 32ull * w->elem : 2 * prev_size_bytes;
    uint64_t s = sweep_stride(w, ref);
    stride_chain(w, ref / s, s, w->chain);
    int rc = learn_band(w, w->chain, ref / s, err);
    if (!rc)
        rc = find_capacity(w, ref, 2 * ref, bound_bytes, lv, err);
    lv->band = w->band;
    if (!rc && lv->size_bytes)
        rc = infer_structure(w, lv, depth, err);
    lv->chases = w->chases;
    return rc;
}

/* ---- average-mode stride walk (TLB cross-check) ----------------------------------------------- */

int cw_avg_stride(cw_walker *w, uint64_t count, uint64_t stride_bytes, double *avg_cycles,
                  gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t *chain = malloc(count * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    stride_chain(w, count, stride_bytes, chain);
    gs_chase_plan p = {.space = w->space, .path = w->path,
                       .footprint_bytes = chain[count - 1] + w->elem, .chain = chain,
                       .chain_len = count, .element_bytes = w->elem, .warmup_passes = 2,
                       .timed_accesses = count * 8 > 8192 ? count * 8 : 8192,
                       .carveout_percent = w->carveout, .smem_bytes = w->smem_bytes};
    /* fewer, larger physical pieces than the fine-grained walks: footprints up to
     * CW_TLB_MAX_FOOTPRINT map in a few thousand pieces */
    if (w->tlb && p.footprint_bytes > CW_AVG_ALIAS_BYTES)
        p.physical_bytes = CW_AVG_ALIAS_BYTES;
    gs_chase_result r = {.latency_cycles = NULL};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *avg_cycles = rc ? NAN : r.avg_cycles;
    free(chain);
    return rc;
}
