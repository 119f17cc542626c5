/* Per-SM timing of a multi-block kernel from per-block clock64 / globaltimer / %smid stamps
 * (issue_spans.h says why both clocks). Roofline paper, section V: throughput per SM per cycle. */
#include "analysis/issue_spans.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

static int compare_stamp(const void *a, const void *b)
{
    const gs_block_stamp *x = a, *y = b;
    if (x->smid_start != y->smid_start)
        return x->smid_start < y->smid_start ? -1 : 1;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

typedef struct sm_span {
    double cycles, clock64_cycles, start_spread_cycles, mismatch, conc;
    unsigned blocks;
} sm_span;

/* One SM's blocks st[0..n): globaltimer span x the SM's own clock, and the clock64 span. */
static sm_span one_sm(const gs_block_stamp *st, size_t n, double resolution_ns)
{
    sm_span s = {0, 0, 0, 0, 0, (unsigned)n};
    uint64_t first_ns = st[0].start_ns, last_ns = st[0].end_ns, last_start_ns = st[0].start_ns;
    uint64_t first_c = st[0].start_cycles, last_c = st[0].end_cycles;
    double own_cycles = 0, own_ns = 0;
    for (size_t i = 0; i < n; i++) {
        last_ns = st[i].end_ns > last_ns ? st[i].end_ns : last_ns;
        last_start_ns = st[i].start_ns > last_start_ns ? st[i].start_ns : last_start_ns;
        first_c = st[i].start_cycles < first_c ? st[i].start_cycles : first_c;
        last_c = st[i].end_cycles > last_c ? st[i].end_cycles : last_c;
        own_cycles += (double)(st[i].end_cycles - st[i].start_cycles);
        own_ns += (double)(st[i].end_ns - st[i].start_ns);
    }
    double ghz = own_cycles / own_ns; /* cycles per ns of this SM */
    s.cycles = (double)(last_ns - first_ns) * ghz;
    s.clock64_cycles = (double)(last_c - first_c);
    s.start_spread_cycles = (double)(last_start_ns - first_ns) * ghz;
    double allowed = GS_SPAN_REL_TOLERANCE * s.cycles + 4.0 * resolution_ns * ghz;
    double diff = fabs(s.clock64_cycles - s.cycles);
    s.mismatch = diff > allowed ? diff / (s.cycles > 0 ? s.cycles : 1) : 0;
    /* blocks running on average over the SM's span: 2 when two blocks ran side by side, 1 when
     * they ran one after the other */
    s.conc = last_ns > first_ns ? own_ns / (double)(last_ns - first_ns) : 0;
    return s;
}

static int check_stamps(const gs_block_stamp *st, size_t n, size_t *bad)
{
    for (size_t i = 0; i < n; i++)
        if (st[i].end_cycles < st[i].start_cycles || st[i].end_ns <= st[i].start_ns) {
            if (bad)
                *bad = i;
            return -1;
        }
    return 0;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The globaltimer's step as seen in the stamps: the gcd of every value's distance from the first. */
static double stamp_resolution_ns(const gs_block_stamp *st, size_t n)
{
    uint64_t g = 0, ref = st[0].start_ns;
    for (size_t i = 0; i < n; i++) {
        g = gcd_u64(g, st[i].start_ns > ref ? st[i].start_ns - ref : ref - st[i].start_ns);
        g = gcd_u64(g, st[i].end_ns > ref ? st[i].end_ns - ref : ref - st[i].end_ns);
    }
    return g > 0 ? (double)g : 1;
}

int gs_issue_spans(gs_block_stamp *st, size_t n, double resolution_ns, gs_span_summary *out,
                   size_t *bad)
{
    gs_span_summary z = {0};
    *out = z;
    if (n == 0 || check_stamps(st, n, bad) != 0)
        return -1;
    double *conc = malloc(2 * n * sizeof *conc), *spread = conc + n;
    if (!conc)
        return -1;
    resolution_ns = resolution_ns > 0 ? resolution_ns : stamp_resolution_ns(st, n);
    uint64_t k_first = st[0].start_ns, k_last = st[0].end_ns;
    double all_cycles = 0, all_ns = 0;
    for (size_t i = 0; i < n; i++) {
        out->moved_blocks += st[i].smid_start != st[i].smid_end;
        k_first = st[i].start_ns < k_first ? st[i].start_ns : k_first;
        k_last = st[i].end_ns > k_last ? st[i].end_ns : k_last;
        all_cycles += (double)(st[i].end_cycles - st[i].start_cycles);
        all_ns += (double)(st[i].end_ns - st[i].start_ns);
    }
    out->clock_khz = all_cycles / all_ns * 1e6;
    out->resolution_ns = resolution_ns;
    out->kernel_cycles = (double)(k_last - k_first) * all_cycles / all_ns;
    qsort(st, n, sizeof *st, compare_stamp);
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a; b < n && st[b].smid_start == st[a].smid_start; b++)
            ;
        sm_span s = one_sm(st + a, b - a, resolution_ns);
        out->sum_sm_cycles += s.cycles;
        out->sum_sm_clock64_cycles += s.clock64_cycles;
        out->max_sm_cycles = s.cycles > out->max_sm_cycles ? s.cycles : out->max_sm_cycles;
        out->max_blocks_per_sm = s.blocks > out->max_blocks_per_sm ? s.blocks : out->max_blocks_per_sm;
        out->clock_mismatch_sms += s.mismatch > 0;
        out->worst_mismatch = s.mismatch > out->worst_mismatch ? s.mismatch : out->worst_mismatch;
        conc[out->sms] = s.conc;
        spread[out->sms] = s.start_spread_cycles;
        out->sms++;
    }
    out->conc_blocks = gs_median(conc, out->sms);
    out->start_spread_cycles = gs_median(spread, out->sms);
    free(conc);
    return 0;
}

bool gs_issue_spans_grouping_ok(const gs_span_summary *s, unsigned blocks_per_sm_limit,
                                unsigned sm_count)
{
    if (s->moved_blocks > 0 || s->sms > sm_count)
        return false;
    return blocks_per_sm_limit == 0 || s->max_blocks_per_sm <= blocks_per_sm_limit;
}
