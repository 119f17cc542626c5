/* The `cache` probe's instrument: a walker chases chains on one space and load path, in the
 * fine-grained mode of Listing 4 of the memory-hierarchy paper (Mei et al., section 3.2: the
 * latency of every access, kept in shared memory) and in the average mode of Listing 2 (one
 * average over many accesses). It holds the trace buffer, the shared-memory budget every chase of
 * a study holds, and the steady-state conflict verdict every method asks it for. Every other
 * file of src/probes/cache/ reaches the device only through these functions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "probes/cache/internal.h"
#include "util/interrupt.h"
#include "util/u64set.h"

/* Physical memory behind TLB walks (gs_chase_plan.physical_bytes): virtual pages alias it, so a
 * walk over gigabytes keeps its data in 16 lines of the data caches, all below address bit 12
 * (one L2 partition, one DRAM row). A backend may round it up to its mapping granularity (2 MB
 * with CUDA's VMM). */
#define CW_ALIAS_BYTES (4ull << 10)

/* The base alignment every chase of device memory asks for (plan.base_align_bytes): the
 * footprint's power of two, so that base + offset = base | offset for every offset of the chain,
 * and an index hashed from any address bits maps offsets as it maps addresses, up to a constant
 * (the base's own bits above the footprint): capacities, one- and two-bit moves, line distances
 * and XOR masks then read the index itself, wherever the allocator would have put the buffer
 * (docs/methods.md, "Where a chase's buffer lies"). At most CW_BASE_ALIGN_MAX, the reach of an
 * L1 index search (16 x capacity, 4 MiB for 256 KB) four times over: past it (an L2's footprints)
 * the extra memory each chase would hold buys little, a physical index seeing the pages' own
 * placement above 2 MiB, and a modulo index none at all (line-aligned bases shift it alike); 0
 * there, and for aliased TLB walks and the other spaces, whose chains are addresses of a space
 * of their own. */
#define CW_BASE_ALIGN_MAX (16ull << 20)

static uint64_t base_align(const cw_walker *w, uint64_t footprint_bytes)
{
    if (w->tlb || (w->space != GS_SPACE_GLOBAL && w->space != GS_SPACE_TEXTURE))
        return 0;
    uint64_t a = 1;
    while (a < footprint_bytes && a <= CW_BASE_ALIGN_MAX)
        a *= 2;
    return a <= CW_BASE_ALIGN_MAX ? a : 0;
}

/* ---- fine-grained chases (Listing 4) --------------------------------------------------------- */

/* A TLB walk's chain with no offset twice: the structure searches build chains from the level
 * they found, and from a junk level of a few hundred bytes (the H100's first TLB level, whose
 * fine-grained walk cannot see its 10-cycle misses) a moved or added block can land on another
 * ("the elements at offsets 512 and 512 land on one physical word", seed 2, which stopped the
 * TLB target). A repeated element moves on a word at a time to an offset, and a word modulo the
 * aliased period, that no other element holds. *out is chain, or a repaired copy the caller
 * frees (*copy; NULL when none, and on an error). */
static int tlb_no_repeats(const cw_walker *w, const uint64_t *chain, size_t n,
                          const uint64_t **out, uint64_t **copy, gs_error *err)
{
    *out = chain;
    *copy = NULL;
    int rep = w->tlb ? gs_u64_repeats(chain, n) : 0;
    if (rep <= 0)
        return rep ? gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory checking a TLB chain")
                   : 0;
    gs_u64set offsets, words, placed;          /* every element's; every word taken; so far */
    *copy = malloc(n * sizeof **copy);
    int rc = *copy && !gs_u64set_init(&offsets, n) ? 0 : -1;
    if (!rc && gs_u64set_init(&words, 2 * n))
        rc = -1, gs_u64set_free(&offsets);
    if (!rc && gs_u64set_init(&placed, n))
        rc = -1, gs_u64set_free(&offsets), gs_u64set_free(&words);
    if (rc) {
        free(*copy);
        *copy = NULL;
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory repairing a TLB chain");
    }
    for (size_t i = 0; i < n; i++) {
        gs_u64set_add(&offsets, chain[i]);
        gs_u64set_add(&words, chain[i] % CW_ALIAS_PERIOD);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = chain[i];
        if (gs_u64set_has(&placed, v)) {         /* an earlier element holds this offset */
            do
                v += w->elem;
            while (gs_u64set_has(&offsets, v) || gs_u64set_has(&placed, v) ||
                   gs_u64set_has(&words, v % CW_ALIAS_PERIOD));
            gs_u64set_add(&words, v % CW_ALIAS_PERIOD);
        }
        gs_u64set_add(&placed, v);
        (*copy)[i] = v;
    }
    gs_u64set_free(&offsets), gs_u64set_free(&words), gs_u64set_free(&placed);
    *out = *copy;
    return 0;
}

int cw_chase(cw_walker *w, const uint64_t *chain, size_t len, unsigned warmup, size_t record,
             size_t *got, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t *fixed = NULL;
    int rc = tlb_no_repeats(w, chain, len, &chain, &fixed, err);
    if (rc)
        return rc;
    uint64_t top = 0;
    for (size_t i = 0; i < len; i++)
        top = chain[i] > top ? chain[i] : top;
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = top + w->elem,
                       .chain = chain, .chain_len = len, .element_bytes = w->elem,
                       .warmup_passes = warmup, .record_n = record < w->cap ? record : w->cap,
                       .carveout_percent = w->carveout, .smem_bytes = w->smem_bytes,
                       .base_align_bytes = base_align(w, top + w->elem)};
    if (w->tlb)
        cw_tlb_alias(&p, CW_ALIAS_BYTES);
    gs_chase_result r = {.latency_cycles = w->lat, .record_capacity = w->cap};
    rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *got = rc ? 0 : r.recorded;
    free(fixed);
    return rc;
}

void cw_tlb_alias(gs_chase_plan *p, uint64_t physical_bytes)
{
    p->physical_bytes = physical_bytes;
    if (p->footprint_bytes < 2 * physical_bytes)
        p->footprint_bytes = 2 * physical_bytes;
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

int cw_distinct_in_piece(uint64_t *chain, size_t n, uint64_t piece, gs_error *err)
{
    gs_u64set placed;
    if (gs_u64set_init(&placed, n))
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for a TLB base walk");
    for (size_t j = 0; j < n; j++) {
        while (!gs_u64set_add(&placed, chain[j]))
            chain[j] += piece;                     /* the k-th visit of a word: k pieces on */
    }
    gs_u64set_free(&placed);
    return 0;
}

void cw_stride_chain(const cw_walker *w, uint64_t n, uint64_t stride_bytes, uint64_t *out)
{
    for (uint64_t j = 0; j < n; j++)
        out[j] = j * stride_bytes + stagger(w, j, stride_bytes);
}

/* Stride of a sweep chain over footprint F: the element (or, below a first level, that level's
 * block, so that every access misses it), doubled until two passes fit the trace. */
uint64_t cw_sweep_stride(const cw_walker *w, uint64_t footprint_bytes)
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
size_t cw_with_fillers(const cw_walker *w, const uint64_t *members, size_t m, uint64_t *out,
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
int cw_conflict_got(cw_walker *w, const uint64_t *chain, size_t len, bool *yes, size_t *got,
                    gs_error *err)
{
    size_t passes = len ? w->cap / len : 0, got2 = 0;
    passes = passes > 16 ? 16 : passes < 1 ? 1 : passes;
    int rc = cw_chase(w, chain, len, 2, passes * len, got, err);
    *yes = !rc && gs_trace_conflict(w->lat, *got, len, &w->band);
    if (rc || !*yes)
        return rc;
    uint32_t *first = malloc(*got * sizeof *first);
    if (!first)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    memcpy(first, w->lat, *got * sizeof *first);
    rc = cw_chase(w, chain, len, 2, passes * len, &got2, err);
    *yes = !rc && gs_trace_conflict_confirmed(first, *got, w->lat, got2, len, &w->band);
    memcpy(w->lat, first, *got * sizeof *first);
    free(first);
    return rc;
}

static int conflict(cw_walker *w, const uint64_t *chain, size_t len, bool *yes, gs_error *err)
{
    size_t got;
    return cw_conflict_got(w, chain, len, yes, &got, err);
}

/* Conflict verdict on a group of blocks (with fillers below a first level). */
int cw_group_conflict(cw_walker *w, const uint64_t *members, size_t m, bool *yes,
                      gs_error *err)
{
    uint64_t *chain = malloc(w->cap * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t n = cw_with_fillers(w, members, m, chain, NULL);
    int rc = conflict(w, chain, n, yes, err);
    free(chain);
    return rc;
}

/* ---- the walker: trace buffer and shared-memory budget --------------------------------------- */

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
                     .avg_sm = -1, .pin_sm = -1,
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

/* ---- average-mode walks (Listing 2) ---------------------------------------------------------- */

int cw_avg_chase(cw_walker *w, const uint64_t *chain, size_t n, uint64_t footprint,
                 unsigned warmup, uint64_t timed, int carveout, double *avg, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t *fixed = NULL;
    int rc = tlb_no_repeats(w, chain, n, &chain, &fixed, err);
    if (rc)
        return rc;
    for (size_t i = 0; fixed && i < n; i++)          /* a moved element stays inside */
        footprint = chain[i] + AVG_ELEM > footprint ? chain[i] + AVG_ELEM : footprint;
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = footprint,
                       .chain = chain, .chain_len = n, .element_bytes = AVG_ELEM,
                       .warmup_passes = warmup, .timed_accesses = timed,
                       .carveout_percent = carveout < 0 ? w->carveout : carveout,
                       .smem_bytes = w->smem_bytes, .on_sm = w->pin_sm >= 0,
                       .sm = w->pin_sm >= 0 ? (unsigned)w->pin_sm : 0,
                       /* through the L2 only: each timed access meets the L2 that a serial
                        * pass leaves (plan.h, warmup_split), and no L1 holds the walk */
                       .warmup_split = w->path == GS_PATH_CG,
                       .base_align_bytes = base_align(w, footprint)};
    if (w->tlb)
        cw_tlb_alias(&p, CW_ALIAS_BYTES);     /* as the fine-grained TLB walks (cw_chase) */
    gs_chase_result r = {.latency_cycles = NULL, .sm_id = -1};
    rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    if (!rc && r.sm_id >= 0 && w->avg_sm != -2)
        w->avg_sm = w->avg_sm == -1 || w->avg_sm == r.sm_id ? r.sm_id : -2;
    *avg = rc ? NAN : r.avg_cycles;
    free(fixed);
    return rc;
}

int cw_avg_walk(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, int carveout,
                double *avg_cycles, gs_error *err)
{
    uint64_t s = stride_bytes > AVG_ELEM ? stride_bytes : AVG_ELEM;
    while (footprint_bytes / s > AVG_MAX_ELEMS)
        s *= 2;
    uint64_t n = footprint_bytes / s;
    if (n < 2)
        n = 2;
    uint64_t *chain = malloc(n * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for a %llu-element chain",
                       (unsigned long long)n);
    gs_chain_sattolo(&w->rng, n, s, chain);
    uint64_t off = w->avg_offset && n * s + w->avg_offset <= w->bound ? w->avg_offset : 0;
    for (uint64_t i = 0; off && i < n; i++)
        chain[i] += off;
    uint64_t timed = n < AVG_TIMED ? (n * 4 > AVG_TIMED ? n * 4 : AVG_TIMED) : AVG_TIMED;
    unsigned warmup = n < 65536 ? 2 : 1;
    int rc = cw_avg_chase(w, chain, n, n * s + off, warmup, timed, carveout, avg_cycles, err);
    free(chain);
    return rc;
}

int cw_avg_offsets_at(cw_walker *w, const uint64_t *offsets, size_t n, int carveout,
                      double *avg_cycles, gs_error *err)
{
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = offsets[i] > top ? offsets[i] : top;
    uint64_t timed = n * 64 > AVG_TIMED ? AVG_TIMED : (n * 64 > 4096 ? n * 64 : 4096);
    return cw_avg_chase(w, offsets, n, top + AVG_ELEM, 2, timed, carveout, avg_cycles, err);
}

int cw_avg_offsets(cw_walker *w, const uint64_t *offsets, size_t n, double *avg_cycles,
                   gs_error *err)
{
    return cw_avg_offsets_at(w, offsets, n, -1, avg_cycles, err);
}
