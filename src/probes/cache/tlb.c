/* TLBs in average mode (memory-hierarchy paper, section 4.2, Fig. 10, Table 4; docs/methods.md
 * "TLBs"): stride walks over aliased physical memory, each compared with a base walk of the same
 * physical words inside one page, give the entries, the page and the miss penalty of the first
 * level and the reach of a second; the fine-grained TLB level (found by cache/level.c like any
 * cache) must agree with them, else these figures replace it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/tlb_ladder.h"
#include "probes/cache/internal.h"
#include "util/interrupt.h"

#define TLB_PIECE (2ull << 20)       /* a page of CUDA's VMM: the period of the physical words */

#define TLB_BIG_PIECE (64ull << 20)  /* the base walk's window: the largest piece dividing the stride */

/* Element j of a stride walk sits at j x stride + 8 j (mod the piece): the elements' physical
 * words are packed 8 bytes apart, so a walk of n regions keeps its data in n / 16 lines (on the
 * H100, walks of up to 512 regions stay inside 4 KB: one L2 partition), each word its own for
 * j < 2^18. Spreading them a line apart (136 B, before) spread them over both L2 partitions, whose
 * near and far hits differ by more than a TLB miss. */
#define TLB_SHIFT 8ull

/* The base walk visits the same physical words inside one piece (one page): the same data-cache
 * behaviour, no TLB pressure; the step is the stride walk's average less the base walk's. Both run
 * over the same aliased physical memory (cw_avg_chase). */
#define CW_TRACE_TICK 1.0   /* a trace's latencies are whole cycles (clock32 differences) */

static int tlb_walk(cw_walker *w, uint64_t count, uint64_t stride, bool base, double *avg,
                    gs_error *err)
{
    uint64_t *chain = malloc(count * sizeof *chain), top = 0;
    uint64_t piece = TLB_BIG_PIECE;
    while (piece > TLB_PIECE && stride % piece)
        piece /= 2;
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t j = 0; j < count; j++) {
        uint64_t phys = ((stride % piece) + TLB_SHIFT) * j % piece;
        chain[j] = base ? phys : j * stride + TLB_SHIFT * j % piece;
    }
    int rc = base ? cw_distinct_in_piece(chain, count, piece, err) : 0;
    for (uint64_t j = 0; j < count; j++)
        top = chain[j] > top ? chain[j] : top;
    uint64_t timed = count * 8 > 8192 ? count * 8 : 8192;
    if (!rc)
        rc = cw_avg_chase(w, chain, count, top + w->elem, 2, timed, -1, avg, err);
    free(chain);
    return rc;
}

static int tlb_step(cw_walker *w, uint64_t n, uint64_t stride, double *step, double *at,
                    gs_error *err)
{
    double a, b;
    int rc = tlb_walk(w, n, stride, false, &a, err);
    if (!rc)
        rc = tlb_walk(w, n, stride, true, &b, err);
    *step = rc ? 0 : a - b;
    *at = a;
    return rc;
}

/* Most elements (doubling from 1, then bisected) whose stride walk shows no step over its base
 * walk (CW_TLB_STEP_CYCLES or 2%); 0 when a step shows nowhere up to 8192 elements or
 * CW_TLB_MAX_FOOTPRINT. *edge: the step of the count past the knee less the knee's own (the
 * rise the knee stands on, judged against the walks' scatter later). */
static int tlb_knee(cw_walker *w, uint64_t stride, uint64_t max_count, uint64_t *knee,
                    double *below, double *above, double *edge, gs_error *err)
{
    double st, a = NAN, base = NAN, s_lo, s_hi = NAN;
    int rc = tlb_step(w, 1, stride, &st, &base, err);
    uint64_t lo = 1, hi = 0;
    s_lo = st;
    for (uint64_t n = 2; !rc && n <= max_count && n * stride <= CW_TLB_MAX_FOOTPRINT; n *= 2) {
        rc = tlb_step(w, n, stride, &st, &a, err);
        if (!rc && st > fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * base)) {
            hi = n;
            *above = a;
            s_hi = st;
            break;
        }
        lo = n;
        s_lo = st;
    }
    while (!rc && hi && hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        rc = tlb_step(w, mid, stride, &st, &a, err);
        if (!rc && st > fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * base))
            hi = mid, *above = a, s_hi = st;
        else
            lo = mid, s_lo = st;
    }
    *below = base;
    *knee = hi ? lo : 0;
    *edge = hi ? s_hi - s_lo : NAN;
    return rc;
}

/* The penalty again at the page where the walks at the largest stride step more than at the page
 * (by more than thr, the least step): their regions, all in few sets of a further level indexed by
 * the low bits above the page, miss that level too, and their step is both misses. At the page
 * the 1.5 x entries regions of the page scan take consecutive pages, each its own entry, every
 * access missing this level alone: their step over the base walk is its penalty, walked
 * CW_TLB_PENALTY_REPS times (the scan's walk the first). */
static int penalty_at_page(cw_walker *w, cw_avg_tlb_result *out, uint64_t page, uint64_t n,
                           double thr, gs_error *err)
{
    size_t kp = 0, kl = out->page_points - 1;
    while (kp < kl && out->page_stride[kp] != (double)page)
        kp++;
    if (!out->page_points || kp >= kl || !(out->page_step[kl] - out->page_step[kp] > thr))
        return 0;
    double pen[CW_TLB_PENALTY_REPS] = {out->page_step[kp]}, at;
    int rc = 0;
    for (int r = 1; r < CW_TLB_PENALTY_REPS && !rc; r++)
        rc = tlb_step(w, n, page, &pen[r], &at, err);
    if (!rc) {
        gs_summary ps = gs_summarize(pen, CW_TLB_PENALTY_REPS);
        out->penalty_above_cycles = out->page_step[kl] - out->page_step[kp];
        out->penalty_cycles = ps.mean;
        out->penalty_ci95 = ps.ci95;
        out->penalty_stride_bytes = page;
    }
    return rc;
}

int cw_avg_tlb(cw_walker *w, cw_avg_tlb_result *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    unsigned start = w->chases;
    int rc = 0;
    /* entries: the most elements that fit, one per region, at the two largest strides */
    for (size_t i = 0; i < 2 && !rc; i++) {
        uint64_t s = CW_TLB_MAX_STRIDE >> (2 * (1 - i));
        out->stride_bytes[i] = s;
        rc = tlb_knee(w, s, 8192, &out->fit_count[i], &out->hit_cycles[i], &out->miss_cycles[i],
                      &out->edge_cycles[i], err);
    }
    out->n = 2;
    if (!rc && (!out->fit_count[1] || out->fit_count[0] != out->fit_count[1]))
        snprintf(out->why, sizeof out->why, "the most regions that fit differ at the two largest "
                 "strides (%llu at %llu B, %llu at %llu B; 0 = no step seen)",
                 (unsigned long long)out->fit_count[0], (unsigned long long)out->stride_bytes[0],
                 (unsigned long long)out->fit_count[1], (unsigned long long)out->stride_bytes[1]);
    if (rc || out->why[0]) {
        snprintf(out->l2.why, sizeof out->l2.why, "the first level was not determined");
        snprintf(out->l2.why_sets, sizeof out->l2.why_sets, "the first level was not determined");
        out->chases = w->chases - start;
        return rc;
    }
    uint64_t e = out->fit_count[1];
    out->entries = e;
    /* the penalty: entries + 1 regions against one at the largest stride, walked again so that
     * it has an interval (one pair read 10.30 and 10.02 cycles in two reports on one H100); the
     * repeated walks' scatter is that of every step here (two walks each): sigma^2 = the miss
     * walks' variance + the hit walks' (the first pair, picked by the knee, left out) */
    double pen[CW_TLB_PENALTY_REPS] = { out->miss_cycles[1] - out->hit_cycles[1] };
    double miss[CW_TLB_PENALTY_REPS], hit[CW_TLB_PENALTY_REPS];
    for (int r = 1; r < CW_TLB_PENALTY_REPS && !rc; r++) {
        rc = tlb_walk(w, e + 1, out->stride_bytes[1], false, &miss[r], err);
        if (!rc)
            rc = tlb_walk(w, 1, out->stride_bytes[1], false, &hit[r], err);
        pen[r] = miss[r] - hit[r];
    }
    if (!rc) {
        gs_summary ps = gs_summarize(pen, CW_TLB_PENALTY_REPS);
        out->penalty_cycles = ps.mean;
        out->penalty_ci95 = ps.ci95;
        double sm = gs_stddev(miss + 1, CW_TLB_PENALTY_REPS - 1);
        double sh = gs_stddev(hit + 1, CW_TLB_PENALTY_REPS - 1);
        out->scatter_cycles = sqrt(sm * sm + sh * sh);
    }
    /* the entries are exact only when the rise past the knee, at both strides, stands above the
     * scatter (a bisection under noise stops where noise crossed its threshold) */
    for (size_t i = 0; i < 2 && !rc && !out->why[0]; i++)
        if (!gs_tlb_edge_resolved(0, out->edge_cycles[i], out->scatter_cycles, CW_TLB_EXACT_Z))
            snprintf(out->why, sizeof out->why, "%llu regions fit at %llu B, but the rise past "
                     "them (%.1f cycles) is within %.0f x the scatter of a difference of two "
                     "steps (sqrt(2) x %.2f cycles, from %d repeated walks): the count is not "
                     "resolved to one region", (unsigned long long)e,
                     (unsigned long long)out->stride_bytes[i], out->edge_cycles[i],
                     CW_TLB_EXACT_Z, out->scatter_cycles, CW_TLB_PENALTY_REPS - 1);
    if (rc || out->why[0]) {
        out->entries = 0;
        snprintf(out->l2.why, sizeof out->l2.why, "the first level was not determined");
        snprintf(out->l2.why_sets, sizeof out->l2.why_sets, "the first level was not determined");
        out->chases = w->chases - start;
        return rc;
    }
    /* page: the smallest stride from which 1.5 x entries elements (each on its own page from the
     * page up; two on one page below it, E x 0.75 pages) step over their base walk; a step must
     * also stand CW_TLB_EXACT_Z x the scatter above none, or noise below the page reads as one */
    uint64_t n = e + (e + 1) / 2, page = 0;
    double thr = fmax(fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * out->hit_cycles[1]),
                      CW_TLB_EXACT_Z * out->scatter_cycles);
    size_t k = 0;
    for (uint64_t s = CW_TLB_MIN_STRIDE; s <= CW_TLB_MAX_STRIDE && !rc && k < CW_TLB_STRIDES;
         s *= 2, k++) {
        double st, at;
        rc = tlb_step(w, n, s, &st, &at, err);
        out->page_stride[k] = (double)s;
        out->page_step[k] = st;
        bool step = !rc && st > thr;
        if (step && !page)
            page = s;
        else if (!step)
            page = 0;                 /* a step must hold at every larger stride */
    }
    out->page_points = k;
    if (!rc && page > CW_TLB_MIN_STRIDE)
        rc = penalty_at_page(w, out, page, n, fmax(thr, CW_TLB_EXACT_Z * sqrt(2.0) *
                                                       out->scatter_cycles), err);
    /* the second level: strides of odd multiples of the page (cache/tlb_second.c) */
    if (!rc)
        rc = cw_tlb_second(w, e, page, page > CW_TLB_MIN_STRIDE, &out->l2, err);
    out->chases = w->chases - start;
    if (rc)
        return rc;
    if (page > CW_TLB_MIN_STRIDE)
        out->page_bytes = page;
    else
        snprintf(out->why, sizeof out->why, "%s", page ? "the step shows from the smallest "
                 "stride tried: the page is at most that" : "no stride shows a step at 1.5 x "
                 "entries from some stride on");
    return 0;
}

/* Physical memory behind average-mode TLB stride walks (cw_avg_stride). */
#define CW_AVG_ALIAS_BYTES (64ull << 20)

int cw_avg_stride(cw_walker *w, uint64_t count, uint64_t stride_bytes, double *avg_cycles,
                  gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t *chain = malloc(count * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    cw_stride_chain(w, count, stride_bytes, chain);
    gs_chase_plan p = {.space = w->space, .path = w->path,
                       .footprint_bytes = chain[count - 1] + w->elem, .chain = chain,
                       .chain_len = count, .element_bytes = w->elem, .warmup_passes = 2,
                       .timed_accesses = count * 8 > 8192 ? count * 8 : 8192,
                       .carveout_percent = w->carveout, .smem_bytes = w->smem_bytes};
    /* fewer, larger physical pieces than the fine-grained walks: footprints up to
     * CW_TLB_MAX_FOOTPRINT map in a few thousand pieces */
    if (w->tlb)
        cw_tlb_alias(&p, CW_AVG_ALIAS_BYTES);
    gs_chase_result r = {.latency_cycles = NULL};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *avg_cycles = rc ? NAN : r.avg_cycles;
    free(chain);
    return rc;
}

/* ---- the fine-grained level checked, and the records ----------------------------------------- */

/* The first TLB level from fine-grained walks must agree with average-mode stride walks
 * (cw_avg_tlb): the same entries, and the same page (or a page below the walks' smallest stride
 * where they see none). Three fine-grained readings judge nothing, and the stride walks stand
 * alone (r->blind says why; *ok stays false): less than one entry, a level whose predicted steps
 * the stride walks do not show, and a level whose miss lies inside the trace's hit band. */
int cw_tlb_check(cw_walker *w, cw_level *lv, cw_avg_tlb_result *r, bool *ok, gs_error *err)
{
    int rc = cw_avg_tlb(w, r, err);
    *ok = false;
    if (rc)
        return rc;
    uint64_t entries = lv->line_bytes ? lv->size_bytes / lv->line_bytes : 0;
    bool page_ok = r->page_bytes ? r->page_bytes == lv->line_bytes
                                 : r->entries && r->page_points &&
                                       lv->line_bytes <= CW_TLB_MIN_STRIDE;
    *ok = r->entries && entries == r->entries && page_ok;
    /* less than one entry held: no level */
    if (!*ok && r->entries && r->page_bytes && lv->line_bytes && lv->size_bytes < lv->line_bytes) {
        snprintf(r->blind, sizeof r->blind, "the fine-grained walk found no whole entry (%llu B "
                 "held, regions of %llu B): no level to check the stride walks against",
                 (unsigned long long)lv->size_bytes, (unsigned long long)lv->line_bytes);
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", r->blind);
        return 0;
    }
    /* a fine-grained level of E entries covering C bytes predicts a step in every stride walk of
     * more than E elements at a stride of at least C; where the stride walks differ from their
     * base walks (strides of a piece or more: other pages, the same physical words) and show none,
     * its misses are not translation (on the H100: "4 entries of 256 B", far L2 lines read as
     * misses). Only a level whose misses the stride walks would see: its own penalty twice their
     * threshold (a first level of 2-cycle misses, under the threshold, stays a disagreement). */
    uint64_t n15 = r->entries + (r->entries + 1) / 2;
    double thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * r->hit_cycles[1]);
    double pen = lv->miss_cycles - lv->band.hit_cycles;
    for (size_t k = 0; !*ok && r->entries && r->page_bytes && entries && lv->line_bytes &&
                       n15 > entries && isfinite(pen) && pen > 2 * thr && k < r->page_points;
         k++) {
        uint64_t s = (uint64_t)r->page_stride[k];
        if (s < TLB_PIECE || s < lv->line_bytes || r->page_step[k] > thr)
            continue;
        snprintf(r->blind, sizeof r->blind, "the fine-grained walk's level (%llu entries of "
                 "%llu B) predicts a step at %llu regions %llu B apart, which the stride walks, "
                 "over the same physical words as their base walks, do not show (%.1f cycles): "
                 "its misses are not translation", (unsigned long long)entries,
                 (unsigned long long)lv->line_bytes, (unsigned long long)n15,
                 (unsigned long long)s, r->page_step[k]);
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", r->blind);
        return 0;
    }
    /* a miss penalty the trace cannot see on every access: a miss lands above the threshold
     * on (nearly) every access only when the penalty exceeds the threshold's distance from the
     * fastest hits (the 1st percentile), so its reading neither confirms nor refutes the stride
     * walks, which stand alone. (Against the median hit, H100 runs whose band was under 10
     * cycles took the 10-cycle miss as visible, and their walks found a capacity with no
     * region: not determined in four runs of twelve; against the 10th percentile, 10.0 cycles
     * on one card, in two of six.) */
    double band = lv->band.threshold_cycles -
                  (isfinite(lv->band.fast_cycles) ? lv->band.fast_cycles : lv->band.hit_cycles);
    /* a trace counts whole cycles: a penalty within one of that distance is not resolved (one
     * H100 read the distance at 10.0 cycles and the miss at 9.97-10.05, and the runs whose
     * penalty came out above 10 were not determined) */
    if (!*ok && r->entries && r->page_bytes && isfinite(band) &&
        r->penalty_cycles <= band + CW_TRACE_TICK) {
        snprintf(r->blind, sizeof r->blind, "the fine-grained walk cannot see this level on "
                 "every access: its miss penalty (%.1f cycles in average mode) lies within a "
                 "cycle of the trace's threshold's distance from its fastest hits (%.1f cycles); "
                 "it read %llu entries of %llu B (a capacity of %llu B)", r->penalty_cycles, band,
                 (unsigned long long)entries, (unsigned long long)lv->line_bytes,
                 (unsigned long long)lv->size_bytes);
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", r->blind);
        return 0;
    }
    /* a capacity without a region (the walk's structure failed): the stride walks may still
     * read a second level as the first (tests/models/tlb_disagree.json: its 2-cycle first level
     * is invisible to them, and the fine-grained capacity is the second level's), so they do not
     * stand alone; the reason says what each walk found */
    if (!*ok && !lv->line_bytes) {
        char fine[208];
        snprintf(fine, sizeof fine, "%.200s", lv->why_structure[0] ? lv->why_structure
                                                                   : "no structure");
        snprintf(lv->why_structure, sizeof lv->why_structure, "fine-grained walks found a "
                 "capacity of %llu B but no region (%s), average-mode stride walks %llu entries "
                 "of %llu B: they disagree", (unsigned long long)lv->size_bytes, fine,
                 (unsigned long long)r->entries, (unsigned long long)r->page_bytes);
    } else if (!*ok)
        snprintf(lv->why_structure, sizeof lv->why_structure, "fine-grained walks found %llu "
                 "entries of %llu B, average-mode stride walks %llu entries of %llu B: they "
                 "disagree", (unsigned long long)entries, (unsigned long long)lv->line_bytes,
                 (unsigned long long)r->entries, (unsigned long long)r->page_bytes);
    return 0;
}

static void record_tlb_refuted(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                               const char *why)
{
    gs_probe_out *p = cw_level_record(ctx, t, depth);
    static const char *const names[] = {"size_bytes", "entries", "page_bytes", "coverage_bytes",
                                        "sets", "ways", "miss_penalty_cycles"};
    static const char *const units[] = {"B", "", "B", "B", "", "", "cycles"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        gs_figure_nd(p, names[i], units[i], "fine-grained TLB walk checked in average mode", "%s",
                     why);
    gs_probe_status(p, "ok", NULL);
}

/* What average-mode walks read for the first level, for a reason that holds both readings. */
static void avg_reading(const cw_avg_tlb_result *r, char *out, size_t len)
{
    if (!r->entries)
        snprintf(out, len, "average-mode stride walks: not determined (%.200s)", r->why);
    else
        snprintf(out, len, "average-mode stride walks: %llu entries, page %llu B (0: not "
                 "determined), miss penalty %.1f cycles", (unsigned long long)r->entries,
                 (unsigned long long)r->page_bytes, r->penalty_cycles);
}

/* The first level when the fine-grained walk was refuted (refuted says how): its walks disagree,
 * so nothing is determined; both readings go in the reason, the stride walks' steps in a series. */
static void record_tlb_disagree(gs_probe_ctx *ctx, const target_def *t, const char *refuted,
                                const cw_avg_tlb_result *r)
{
    char why[640], avg[320];
    avg_reading(r, avg, sizeof avg);
    snprintf(why, sizeof why, "the TLB's walks disagree: %.300s; %.300s", refuted, avg);
    gs_probe_out *p = cw_level_record(ctx, t, 0);
    gs_param_int(p, "chases", (long long)r->chases);
    static const char *const names[] = {"size_bytes", "entries", "page_bytes", "coverage_bytes",
                                        "sets", "ways", "miss_penalty_cycles",
                                        "miss_penalty_ns"};
    static const char *const units[] = {"B", "", "B", "B", "", "", "cycles", "ns"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        gs_figure_nd(p, names[i], units[i], "fine-grained TLB walk checked in average mode", "%s",
                     why);
    if (r->page_points)
        gs_series(p, "tlb_step_by_stride", "stride", "B", "step over the base walk at 1.5 x "
                  "entries", "cycles", r->page_stride, r->page_step, r->page_points);
    gs_probe_status(p, "ok", NULL);
}

/* The first level from average-mode stride walks alone (--structure average), or not determined
 * when the fine-grained walk was refuted; then the second level (cw_avg_tlb's l2 fields). */
void cw_record_tlb_average(gs_probe_ctx *ctx, const target_def *t, const char *refuted,
                           const cw_avg_tlb_result *rp)
{
    cw_avg_tlb_result r = *rp;
    char why[640];
    snprintf(why, sizeof why, "%.400s; average mode: %.200s", refuted, r.why[0] ? r.why : "ok");
    bool alone = strcmp(refuted, "--structure average") == 0 || r.blind[0];
    if (!alone) {
        record_tlb_disagree(ctx, t, refuted, &r);
    } else if (!r.entries) {
        record_tlb_refuted(ctx, t, 0, why);
    } else {
        gs_probe_out *p = cw_level_record(ctx, t, 0);
        const char *m = "average-mode stride walks over aliased memory: most regions of one "
                        "stride visited with no step in the average latency, equal at the largest "
                        "strides";
        gs_param_int(p, "chases", (long long)r.chases);
        gs_param_double(p, "step_scatter_cycles", r.scatter_cycles);
        if (r.blind[0])
            gs_probe_warning(p, "%s", r.blind);
        gs_figure(p, "entries", (double)r.entries, "", 0, 1, m);
        if (r.page_bytes) {
            const char *pm = "the smallest stride from which 1.5 x entries regions step: each "
                             "region its own entry";
            cw_page_nd(p, r.page_bytes);
            gs_figure(p, "coverage_bytes", (double)r.page_bytes, "B", 0, 1, pm);
            gs_figure(p, "size_bytes", (double)(r.page_bytes * r.entries), "B", 0, 1,
                      "entries x coverage");
        } else {
            gs_figure_nd(p, "page_bytes", "B", m, "%s", r.why);
            gs_figure_nd(p, "coverage_bytes", "B", m, "%s", r.why);
            gs_figure_nd(p, "size_bytes", "B", m, "%s", r.why);
        }
        if (r.entries == 1) {
            const char *one = "a level of one entry is one set of one way";
            gs_figure(p, "sets", 1, "", 0, 1, one);
            gs_figure(p, "ways", 1, "", 0, 1, one);
        } else {
            static const char *counted = "average-mode walks give the count of entries only; "
                                         "the second level's ladder (regions against odd "
                                         "multiples of the coverage) run below this level's "
                                         "reach would decide it";
            gs_figure_nd(p, "sets", "", m, "%s", counted);
            gs_figure_nd(p, "ways", "", m, "%s", counted);
        }
        char pm2[320];
        if (r.penalty_stride_bytes)
            snprintf(pm2, sizeof pm2, "step of 1.5 x entries regions over their base walk at "
                     "the page stride (%llu B): the mean of %d walks (at the largest stride the "
                     "step is %.1f cycles more: a further level's misses)",
                     (unsigned long long)r.penalty_stride_bytes, CW_TLB_PENALTY_REPS,
                     r.penalty_above_cycles);
        else
            snprintf(pm2, sizeof pm2, "step of the average latency from one region to entries + "
                     "1, at the largest stride: the mean of %d pairs of walks",
                     CW_TLB_PENALTY_REPS);
        gs_figure(p, "miss_penalty_cycles", r.penalty_cycles, "cycles", r.penalty_ci95,
                  CW_TLB_PENALTY_REPS, pm2);
        gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, r.penalty_cycles), "ns",
                  gs_cycles_to_ns(ctx, r.penalty_ci95), CW_TLB_PENALTY_REPS, pm2);
        gs_series(p, "tlb_step_by_stride", "stride", "B", "step over the base walk at 1.5 x entries",
                  "cycles", r.page_stride, r.page_step, r.page_points);
        gs_probe_status(p, "ok", NULL);
    }
    /* Under a first level that was not determined, the second level's unit is not a known page. */
    cw_record_tlb_second(ctx, t, &r.l2, alone ? NULL : refuted, alone || !refuted);
}

/* The second level from average-mode walks (cw_tlb_second); refuted: why the fine-grained level
 * it contradicts is not reported (NULL: none). */
void cw_record_tlb_second(gs_probe_ctx *ctx, const target_def *t, const cw_tlb_second_result *r,
                          const char *refuted, bool page_known)
{
    gs_probe_out *p = cw_level_record(ctx, t, 1);
    gs_param_int(p, "walked_bytes", (long long)r->walked_bytes);
    gs_param_int(p, "chases", (long long)r->chases);
    const char *m = r->ladder || (r->coverage_bytes && !r->entries) ?
                    "average-mode stride walks over aliased memory, the ladder: the full rise at "
                    "1, 2, 4 ... pages doubles up to the coverage and holds past it; entries from "
                    "the LRU staircase at the coverage (ways + 1 misses per entry added past a "
                    "full set, Fig. 11), its predictions checked" :
                    "average-mode stride walks over aliased memory: most regions that fit at "
                    "strides of 1, 3, 17, 67, 257 pages (one count = entries, one reach = entries "
                    "x coverage)";
    const char *ms = r->ladder ? "the ladder's staircase at the coverage: ways + 1 = misses per "
                     "entry added past the entries, sets = entries / ways; LRU's steps predicted "
                     "and checked on and past the staircase" :
                     "average-mode stride walks: most regions that fit at 2, 4, 8 ... x the "
                     "coverage (halving under a power-of-two index, holding at the ways)";
    char why[1400];
    snprintf(why, sizeof why, "%s%.300s%s%.1023s", refuted ? "the fine-grained walk was refuted: "
             : "", refuted ? refuted : "", refuted ? "; average mode: " : "", r->why);
    if (r->page_bytes && page_known)
        cw_page_nd(p, r->page_bytes);
    else if (refuted) /* the stride unit is the average walk's reading, not a known page */
        gs_figure_nd(p, "page_bytes", "B", m, "the first level's page is not determined: %.400s",
                     refuted);
    else
        gs_figure_nd(p, "page_bytes", "B", m, "%s", r->why);
    if (r->entries) {
        gs_figure(p, "entries", (double)r->entries, "", 0, 1, m);
        gs_figure(p, "coverage_bytes", (double)r->coverage_bytes, "B", 0, 1, m);
        gs_figure(p, "size_bytes", (double)r->reach_bytes, "B", 0, 1, "entries x coverage");
    } else {
        gs_figure_nd(p, "entries", "", m, "%s", why);
        if (r->coverage_bytes)          /* the ladder's coverage stands without its entries */
            gs_figure(p, "coverage_bytes", (double)r->coverage_bytes, "B", 0, 1, m);
        else
            gs_figure_nd(p, "coverage_bytes", "B", m, "%s", why);
        if (r->reach_bytes && r->reach_min)
            gs_figure_nd(p, "size_bytes", "B", m, "%s (at least %llu B: the regions that fit at "
                         "the largest stride tried)", why, (unsigned long long)r->reach_bytes);
        else
            gs_figure_nd(p, "size_bytes", "B", m, "%s", why);
    }
    if (r->sets) {
        gs_figure(p, "sets", (double)r->sets, "", 0, 1, ms);
        gs_figure(p, "ways", (double)r->ways, "", 0, 1, ms);
        if (r->sets == 1)
            gs_figure_list(p, "mapping", NULL, 0, "bit", 1, "one set (fully associative): no "
                           "index bit");
        else if (r->ladder)
            gs_figure_nd(p, "mapping", "", ms, "%s", "the ladder counts sets and ways, not "
                         "which address bits index them (odd multiples of the page spread "
                         "unevenly over them: a hashed index, or sets that no odd stride "
                         "reaches evenly); regions chosen to differ in one or two address bits "
                         "above the coverage, each walked against a full set, would decide it");
    } else {
        gs_figure_nd(p, "sets", "", ms, "%s", r->why_sets);
        gs_figure_nd(p, "ways", "", ms, "%s", r->why_sets);
    }
    gs_figure_nd(p, "policy", "", "replacement tests", "%s", "average-mode counts of regions "
                 "do not test replacement; sequences over one set's ways + 1 regions, each "
                 "access timed (a fine-grained walk past the first level), would decide it");
    if (r->points)
        gs_series(p, "regions_by_stride", "stride", "B", "regions that fit before the second "
                  "step", "regions", r->stride_bytes, r->count, r->points);
    for (size_t i = 0; i < r->n_walks; i++) {   /* each count walked: a creep shows here */
        char name[64];
        snprintf(name, sizeof name, "steps_%llu_pages", (unsigned long long)(r->page_bytes ?
                 r->walks[i].stride_bytes / r->page_bytes : 0));
        if (r->walks[i].n)
            gs_series(p, name, "regions", "", "step over the walk of the fewest regions",
                      "cycles", r->walks[i].count, r->walks[i].step_cycles, r->walks[i].n);
    }
    if (r->ladder_points) {
        gs_series(p, "ladder_rise_by_stride", "stride", "B", "rise of twice the count the "
                  "previous stride predicts (the page: of twice its count)", "cycles",
                  r->ladder_stride, r->ladder_rise, r->ladder_points);
        gs_series(p, "ladder_fit_by_stride", "stride", "B", "regions that fit (the count the "
                  "page's predicts; 0: not walked or did not fit)", "regions", r->ladder_stride,
                  r->ladder_fit, r->ladder_points);
    }
    if (r->stair_points) {
        gs_series(p, "ladder_staircase", "regions", "", "step at the coverage over the walk of "
                  "the fewest regions", "cycles", r->stair_count, r->stair_step,
                  r->stair_points);
        gs_series(p, "ladder_staircase_predicted", "regions", "", "LRU's step for the fitted "
                  "entries and ways (null: no fit)", "cycles", r->stair_count,
                  r->stair_predicted, r->stair_points);
    }
    if (isfinite(r->creep_cycles))
        gs_param_double(p, "creep_cycles", r->creep_cycles);
    if (isfinite(r->scatter_cycles) && r->scatter_reps)
        gs_param_double(p, "step_scatter_cycles", r->scatter_cycles);
    const char *mp = "second step of the average latency over the first level's misses";
    if (isfinite(r->penalty_cycles) && r->entries) {
        gs_figure(p, "miss_penalty_cycles", r->penalty_cycles, "cycles", 0, 1, mp);
        gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, r->penalty_cycles), "ns", 0, 1, mp);
    } else {
        gs_figure_nd(p, "miss_penalty_cycles", "cycles", mp, "%s", why);
    }
    gs_probe_status(p, "ok", NULL);
}

void cw_tlb_check_second(cw_level *lv, const cw_tlb_second_result *r, bool *ok)
{
    uint64_t entries = lv->line_bytes ? lv->size_bytes / lv->line_bytes : 0;
    *ok = !r->entries || (entries == r->entries && lv->line_bytes == r->coverage_bytes);
    if (!*ok && !lv->line_bytes)    /* a size without an entry's region (a creep's knee, say) */
        snprintf(lv->why_structure, sizeof lv->why_structure, "fine-grained walks found a level "
                 "of %llu B whose entry region they could not tell, average-mode stride walks "
                 "%llu entries of %llu B: they disagree", (unsigned long long)lv->size_bytes,
                 (unsigned long long)r->entries, (unsigned long long)r->coverage_bytes);
    else if (!*ok)
        snprintf(lv->why_structure, sizeof lv->why_structure, "fine-grained walks found "
                 "%llu entries of %llu B, average-mode stride walks %llu entries of %llu B: they "
                 "disagree", (unsigned long long)entries, (unsigned long long)lv->line_bytes,
                 (unsigned long long)r->entries, (unsigned long long)r->coverage_bytes);
}
