/* Unit tests of src/analysis/step_search.c: the count at which a walk's step rises, on step curves
 * whose answer is known: a sharp step, the same under a creep (the H100's second TLB level: a
 * hit past the near ways costs more), a creep alone, a set-associative staircase (Fermi's
 * 17 + 6 x 8: one set overflows per added region), noise, and the edge cases. */
#include <math.h>
#include <stdlib.h>

#include "gs_test.h"

#include "analysis/step_search.h"

typedef struct curve {
    uint64_t entries;       /* the level's entries: counts above it miss */
    double penalty;         /* cycles when every region misses */
    unsigned overflow;      /* 0: every region misses past the entries (fully associative, LRU);
                               else misses = overflow x (n - entries), at most n: sets of
                               overflow - 1 ways overflowing one per added region */
    uint64_t near;          /* creep: hits past `near` entries cost `far` more (0: none) */
    double far;
    double noise;           /* +- this much, drawn per walk */
} curve;

static double step_of(const curve *c, uint64_t n)
{
    double misses = 0;
    if (n > c->entries)
        misses = c->overflow ? fmin((double)n, (double)c->overflow * (double)(n - c->entries))
                             : (double)n;
    double hits = (double)n - misses, s = misses / (double)n * c->penalty;
    if (c->near && hits > (double)c->near)
        s += (hits - (double)c->near) / (double)n * c->far;
    return s + c->noise * (2.0 * rand() / RAND_MAX - 1.0);
}

/* Run the search over a curve; returns the walks it made. */
static unsigned search(const curve *c, gs_step_search *s, uint64_t n0, uint64_t first,
                       uint64_t max_count, double thr, bool exact)
{
    unsigned walks = 0;
    gs_step_init(s, n0, step_of(c, n0), first, max_count, thr, exact);
    for (uint64_t n; (n = gs_step_next(s)) != 0; walks++)
        gs_step_add(s, step_of(c, n));
    return walks;
}

static void sharp_step(void **state)
{
    (void)state;
    gs_step_search s;
    curve c = {.entries = 2048, .penalty = 100};
    search(&c, &s, 34, 68, 1 << 20, 3.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 2048);
    assert_int_equal(s.hi, 2049);
    search(&c, &s, 34, 68, 1 << 20, 3.0, false);    /* to 1/64 */
    assert_true(s.found);
    assert_true(s.lo <= 2048 && s.lo >= 2048 - 2048 / 64 && s.hi > 2048);
}

/* The creep of tests/models/tlb_creep.json's second level: 128 near ways, 10 cycles past them, 9.4
 * cycles at 2048 entries, three times the threshold; the old rule (a rise over n0) read 177. */
static void step_under_creep(void **state)
{
    (void)state;
    gs_step_search s;
    curve c = {.entries = 2048, .penalty = 100, .near = 128, .far = 10};
    search(&c, &s, 34, 68, 1 << 20, 3.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 2048);
    assert_true(s.s_lo > 9 && s.s_lo < 10);     /* the plateau at the step holds the creep */
    c.noise = 0.5;                              /* and with noise, from another start */
    srand(1);
    search(&c, &s, 34, 1000, 1 << 20, 3.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 2048);
}

static void creep_alone_is_no_step(void **state)
{
    (void)state;
    gs_step_search s;
    /* 40 cycles of creep */
    curve c = {.entries = 1u << 30, .penalty = 100, .near = 64, .far = 40};
    unsigned walks = search(&c, &s, 34, 68, 1 << 16, 3.0, false);
    assert_false(s.found);
    assert_int_equal(gs_step_next(&s), 0);
    assert_true(walks < 60);                    /* a few bisections, not a sweep */
    /* conflicts one region at a time (an index on virtual-address bits past the level's reach:
     * two misses per region added, 0.1 cycles each near 2048): no step either */
    curve v = {.entries = 2048, .penalty = 100, .overflow = 2};
    search(&v, &s, 34, 68, 1 << 16, 3.0, false);
    assert_false(s.found);
    assert_true(s.s_lo > 90);                   /* the whole rise taken as plateau */
}

/* Fermi's L2 TLB (Fig. 11): 65 entries, the first overflowing set adds 9 misses (8 ways + 1),
 * then 9 more per region: 11.5 cycles at 66 regions, far below half the penalty. */
static void set_staircase(void **state)
{
    (void)state;
    gs_step_search s;
    curve c = {.entries = 65, .penalty = 84, .overflow = 9};
    search(&c, &s, 64, 128, 1 << 20, 3.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 65);
    c.near = 16;                                /* with a creep as well */
    c.far = 6;
    search(&c, &s, 34, 68, 1 << 20, 1.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 65);
}

static void edge_cases(void **state)
{
    (void)state;
    gs_step_search s;
    curve c = {.entries = 34, .penalty = 100};  /* n0 regions fit, n0 + 1 do not */
    search(&c, &s, 34, 68, 1 << 20, 3.0, true);
    assert_true(s.found);
    assert_int_equal(s.lo, 34);
    gs_step_init(&s, 34, 0, 68, 50, 3.0, true); /* first count past the limit: nothing to walk */
    assert_int_equal(gs_step_next(&s), 0);
    assert_false(s.found);
    gs_step_init(&s, 34, 0, 34, 1000, 3.0, true);   /* first not above n0 */
    assert_int_equal(gs_step_next(&s), 0);
    gs_step_init(&s, 34, 0, 68, 1000, 3.0, true);   /* a walk that failed ends the search */
    gs_step_add(&s, NAN);
    assert_int_equal(gs_step_next(&s), 0);
    assert_false(s.found);
    gs_step_add(&s, 5.0);                       /* nothing named: ignored */
    assert_false(s.found);
    c.entries = 1u << 30;                       /* all equal: no step up to the limit */
    c.penalty = 0;
    search(&c, &s, 34, 68, 4096, 3.0, false);
    assert_false(s.found);
    assert_int_equal(s.lo, 2176);               /* the last count walked, 68 x 32 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sharp_step),
        cmocka_unit_test(step_under_creep),
        cmocka_unit_test(creep_alone_is_no_step),
        cmocka_unit_test(set_staircase),
        cmocka_unit_test(edge_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
