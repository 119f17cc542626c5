/* The L1's store policy from loads after stores (write_policy.h): each case's latency is put on
 * the hit or the miss side of two references, and the three policies follow from which cases
 * land where; the write policy from whether another SM saw the store. */
#include <math.h>
#include <stdio.h>

#include "analysis/write_policy.h"

static gs_summary summarize(gs_wp_samples x)
{
    return gs_summarize_robust(x.x, x.x ? x.n : 0, 5);
}

gs_wp_side gs_wp_classify(const gs_wp_verdict *refs, gs_wp_samples x, gs_summary *s)
{
    *s = summarize(x);
    if (!refs->separated || !(s->n > 0))
        return GS_WP_UNDECIDED;
    double ci = isfinite(s->ci95) ? s->ci95 : 0;
    if (s->median + ci < refs->threshold_cycles)
        return GS_WP_HIT;
    if (s->median - ci > refs->threshold_cycles)
        return GS_WP_MISS;
    return GS_WP_UNDECIDED;
}

const char *gs_wp_store_hit_name(gs_wp_store_hit h)
{
    switch (h) {
    case GS_WP_STORE_HIT_UPDATE: return "updates it";
    case GS_WP_STORE_HIT_INVALIDATE: return "invalidates it";
    case GS_WP_STORE_HIT_STALE: return "keeps the old value";
    default: return "not determined";
    }
}

static const char *side_name(gs_wp_side s)
{
    return s == GS_WP_HIT ? "an L1 hit" : s == GS_WP_MISS ? "an L1 miss" : "between them";
}

/* The two references: separated when their intervals do not meet and the gap between their
 * medians is over twice the larger standard deviation (single loads of each kind are told apart,
 * not only their means: two L2 references a cycle apart are not a hit and a miss). */
static void references(const gs_wp_input *in, gs_wp_verdict *out)
{
    out->ref_hit = summarize(in->ref_hit);
    out->ref_miss = summarize(in->ref_miss);
    out->threshold_cycles = (out->ref_hit.median + out->ref_miss.median) / 2;
    double hi = out->ref_hit.median + (isfinite(out->ref_hit.ci95) ? out->ref_hit.ci95 : 0);
    double lo = out->ref_miss.median - (isfinite(out->ref_miss.ci95) ? out->ref_miss.ci95 : 0);
    double sd = fmax(isfinite(out->ref_hit.stddev) ? out->ref_hit.stddev : 0,
                     isfinite(out->ref_miss.stddev) ? out->ref_miss.stddev : 0);
    out->separated = out->ref_hit.n > 0 && out->ref_miss.n > 0 && hi < lo &&
                     out->ref_miss.median - out->ref_hit.median > 2 * sd;
}

static void not_separated(const gs_wp_verdict *v, char *why, size_t len)
{
    snprintf(why, len, "the references are not separated: a line in the L1 loads in %.1f +- %.1f "
             "cycles, one evicted from it in %.1f +- %.1f (the path may not use the L1, or noise)",
             v->ref_hit.median, v->ref_hit.ci95, v->ref_miss.median, v->ref_miss.ci95);
}

static void infer_allocate(const gs_wp_input *in, gs_wp_verdict *out)
{
    out->allocate = -1;
    out->allocate_unit = NULL;
    gs_wp_side w = gs_wp_classify(out, in->cold_word, &out->cold_word);
    gs_wp_side s = gs_wp_classify(out, in->cold_sector, &out->cold_sector);
    gs_wp_side l = gs_wp_classify(out, in->cold_line, &out->cold_line);
    if (!out->separated) {
        not_separated(out, out->allocate_reason, sizeof out->allocate_reason);
        return;
    }
    snprintf(out->allocate_reason, sizeof out->allocate_reason, "a line evicted from the L1, "
             "stored to, then loaded (same word): %.1f +- %.1f cycles, %s (L1 hit %.1f, L2 %.1f, "
             "midpoint %.1f)", out->cold_word.median, out->cold_word.ci95, side_name(w),
             out->ref_hit.median, out->ref_miss.median, out->threshold_cycles);
    if (w == GS_WP_UNDECIDED)
        return;
    out->allocate = w == GS_WP_HIT;
    if (!out->allocate)
        return;
    if (l == GS_WP_HIT)
        out->allocate_unit = "line";
    else if (l == GS_WP_MISS && s == GS_WP_HIT)
        out->allocate_unit = "sector";
    else if (s == GS_WP_MISS)
        out->allocate_unit = "word";
}

static void infer_store_hit(const gs_wp_input *in, gs_wp_verdict *out)
{
    out->store_hit = GS_WP_STORE_HIT_UNKNOWN;
    out->invalidate_unit = NULL;
    gs_wp_side w = gs_wp_classify(out, in->warm_word, &out->warm_word);
    gs_wp_side l = gs_wp_classify(out, in->warm_line, &out->warm_line);
    if (!out->separated) {
        not_separated(out, out->store_hit_reason, sizeof out->store_hit_reason);
        return;
    }
    size_t n = out->warm_word.n + out->warm_word.outliers;
    snprintf(out->store_hit_reason, sizeof out->store_hit_reason, "a line in the L1, stored to, "
             "then loaded (same word): %.1f +- %.1f cycles, %s (L1 hit %.1f, L2 %.1f); %u of %zu "
             "loads returned the old value", out->warm_word.median, out->warm_word.ci95,
             side_name(w), out->ref_hit.median, out->ref_miss.median, in->warm_word_old, n);
    if (w == GS_WP_MISS) {
        out->store_hit = GS_WP_STORE_HIT_INVALIDATE;
        out->invalidate_unit = l == GS_WP_MISS ? "line" : l == GS_WP_HIT ? "sector" : NULL;
    } else if (w == GS_WP_HIT && in->warm_word_old == 0) {
        out->store_hit = GS_WP_STORE_HIT_UPDATE;
    } else if (w == GS_WP_HIT && 2 * (size_t)in->warm_word_old > n) {
        out->store_hit = GS_WP_STORE_HIT_STALE;
    }
}

static void infer_policy(const gs_wp_input *in, gs_wp_verdict *out)
{
    out->write_through = -1;
    out->vis = summarize(in->vis_cycles);
    out->ctl = summarize(in->ctl_cycles);
    char *why = out->policy_reason;
    size_t len = sizeof out->policy_reason;
    if (!out->separated)
        return (void)snprintf(why, len, "the line cannot be shown to be in the L1 before the "
                              "store: the references are not separated (%.1f and %.1f cycles)",
                              out->ref_hit.median, out->ref_miss.median);
    if (in->ctl_valid == 0 || in->vis_valid == 0)
        return (void)snprintf(why, len, "the writer and the reader never ran on two SMs at once "
                              "(every repetition void)");
    if (in->ctl_seen < in->ctl_valid)
        return (void)snprintf(why, len, "the control (st.global.cg, which reaches the L2) was "
                              "seen by the other SM in %zu of %zu repetitions only",
                              in->ctl_seen, in->ctl_valid);
    if (in->vis_seen == in->vis_valid) {
        out->write_through = 1;
        return (void)snprintf(why, len, "another SM's L2 load saw the store to a line in the "
                              "writer's L1 in all %zu repetitions, after %.0f cycles (median; "
                              "control st.cg: %.0f)", in->vis_valid, out->vis.median,
                              out->ctl.median);
    }
    if (in->vis_seen == 0) {
        out->write_through = 0;
        return (void)snprintf(why, len, "another SM's L2 load never saw the store to a line in "
                              "the writer's L1 (%zu repetitions, while the writer lived), but "
                              "saw the control st.cg after %.0f cycles", in->vis_valid,
                              out->ctl.median);
    }
    snprintf(why, len, "another SM saw the store in %zu of %zu repetitions only", in->vis_seen,
             in->vis_valid);
}

void gs_wp_infer(const gs_wp_input *in, gs_wp_verdict *out)
{
    *out = (gs_wp_verdict){0};
    references(in, out);
    infer_allocate(in, out);
    infer_store_hit(in, out);
    infer_policy(in, out);
}
