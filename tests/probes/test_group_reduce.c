/* Unit tests of cw_group_reduce (src/probes/cache/avg_structure.c), the group reduction of the
 * eviction-set searches: a fake verdict over numbered lines, a set of W "mates" of which any W
 * miss. With exact verdicts the reduction leaves exactly the mates; with a verdict that lies
 * once ("still misses" after a mate was dropped) it takes the drop back and still leaves exactly
 * the mates, counting one take-back; with verdicts that lie at random (1 in 50, fixed seeds) it
 * ends at exactly the mates nearly always; where any enough lines miss (eviction by volume) the
 * stall rule stops it and says so, and never on a set. Synthetic lines whose answer is known. */
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "probes/cache/internal.h"

#define N 4096
#define W 16

typedef struct fake {
    unsigned calls;
    unsigned lie_at;          /* the call that answers "misses" whatever it gets (0: none) */
    uint64_t rng;             /* != 0: a call answers "misses" whatever it gets 1 in 50 times */
    bool confirm;             /* cw_group_reduce's: a drop needs two verdicts */
    size_t stall_groups;      /* cw_group_reduce's */
    unsigned volume;          /* != 0: any this many lines miss, whichever (no set) */
    bool stalled;             /* what cw_group_reduce said */
} fake;

static bool mate(uint64_t line)
{
    return line % (N / W) == 7;   /* W mates among N lines, spread over the list */
}

static int verdict(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more,
                   gs_error *err)
{
    fake *f = ctx;
    (void)err;
    size_t mates = 0;
    for (size_t i = 0; i < n; i++)
        mates += mate(lines[i]);
    f->calls++;
    bool lie = f->calls == f->lie_at;
    if (f->rng) {
        f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
        lie |= (f->rng >> 33) % 50 == 0;
    }
    *yes = mates >= W || lie || (f->volume && n >= f->volume);
    *more = f->calls < 100000;
    return 0;
}

static size_t reduce(fake *f, uint64_t *s, unsigned *undone)
{
    uint64_t *t = malloc(N * sizeof *t);
    gs_error err = {0};
    size_t m = N;
    for (size_t i = 0; i < N; i++)
        s[i] = i;
    cw_reduce opt = {.confirm = f->confirm, .stall_groups = f->stall_groups};
    assert_int_equal(cw_group_reduce(s, &m, t, verdict, f, &opt, &err), 0);
    *undone = opt.undone;
    f->stalled = opt.stalled;
    free(t);
    return m;
}

static void assert_mates(const uint64_t *s, size_t m)
{
    assert_int_equal(m, W);
    for (size_t i = 0; i < m; i++)
        assert_true(mate(s[i]));
}

static void test_exact_verdicts(void **state)
{
    (void)state;
    uint64_t s[N];
    fake f = {0};
    unsigned undone = 99;
    assert_mates(s, reduce(&f, s, &undone));
    assert_int_equal(undone, 0);
}

static void test_one_lie_taken_back(void **state)
{
    (void)state;
    /* lie at each of several calls: whatever it dropped goes back, the mates are found */
    for (unsigned lie = 2; lie < 200; lie += 13) {
        uint64_t s[N];
        fake f = {.lie_at = lie};
        unsigned undone = 0;
        assert_mates(s, reduce(&f, s, &undone));
        assert_true(undone <= 1);
    }
}

static void test_random_lies(void **state)
{
    (void)state;
    unsigned exact = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        uint64_t s[N];
        fake f = {.rng = seed, .confirm = true};
        unsigned undone = 0;
        size_t m = reduce(&f, s, &undone);
        bool only_mates = m == W;
        for (size_t i = 0; i < m; i++)
            only_mates &= mate(s[i]);
        exact += only_mates;
        assert_true(undone <= CW_REDUCE_UNDO);
    }
    assert_true(exact >= 18);
}

static void test_volume_stalls(void **state)
{
    (void)state;
    /* any 3000 of the 4096 lines miss: no group can go once 3000 are left, at any fineness; the
     * stall rule stops at 2 (16 + 1) groups, the pigeonhole bound of 16 ways, and says so */
    uint64_t s[N];
    fake f = {.volume = 3000, .confirm = true, .stall_groups = 2 * (W + 1)};
    unsigned undone = 0;
    size_t m = reduce(&f, s, &undone);
    assert_true(f.stalled);
    assert_true(m >= 3000 && m < 3000 + N / 34 + 1);
    /* the mates alone: the stall rule never fires on a set (exact verdicts) */
    fake g = {.confirm = true, .stall_groups = 2 * (W + 1)};
    assert_mates(s, reduce(&g, s, &undone));
    assert_false(g.stalled);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_verdicts),
        cmocka_unit_test(test_one_lie_taken_back),
        cmocka_unit_test(test_random_lies),
        cmocka_unit_test(test_volume_stalls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
