/* The count at which a walk's average latency steps, past a gradual creep (step_search.h;
 * docs/methods.md, "TLBs", second level). Pure. */
#include <math.h>

#include "analysis/step_search.h"

static bool narrow_enough(const gs_step_search *s)
{
    return s->hi - s->lo <= 1 || (!s->exact && s->hi - s->lo <= s->lo / 64);
}

/* Name the next count: the bracket's middle, or (no bracket) double the plateau's top. */
static void plan_next(gs_step_search *s)
{
    if (s->hi && narrow_enough(s)) {
        s->found = true;
        s->next = 0;
    } else if (s->hi) {
        s->next = s->lo + (s->hi - s->lo) / 2;
    } else {
        s->next = s->lo * 2 <= s->max_count && s->lo * 2 > s->lo ? s->lo * 2 : 0;
    }
}

void gs_step_init(gs_step_search *s, uint64_t n0, double s0, uint64_t first, uint64_t max_count,
                  double thr, bool exact)
{
    *s = (gs_step_search){.lo = n0, .s_lo = s0, .max_count = max_count, .thr = thr,
                          .exact = exact};
    s->next = first > n0 && first <= max_count ? first : 0;
}

uint64_t gs_step_next(const gs_step_search *s) { return s->next; }

void gs_step_add(gs_step_search *s, double step)
{
    uint64_t n = s->next;
    if (!n)
        return;
    if (!isfinite(step)) {
        s->next = 0;
        return;
    }
    if (step - s->s_lo > s->thr) {              /* a rise between lo and n: look below n */
        s->hi = n;
        s->s_hi = step;
    } else {                                    /* n is on the plateau (a creep included) */
        s->lo = n;
        s->s_lo = step;
        if (s->hi && s->s_hi - step <= s->thr)  /* neither half rose: gradual, go on above */
            s->lo = s->hi, s->s_lo = s->s_hi, s->hi = 0;
    }
    plan_next(s);
}
