/* Unit tests of src/analysis/issue_spans.c: per-SM timing of multi-block kernels from synthetic
 * block stamps whose answer is known: SMs with their own clock64 offsets, blocks that start late,
 * blocks sharing an SM id but not a cycle counter (clock64 / globaltimer disagreement), moved
 * blocks, the globaltimer step from the stamps, malformed stamps. */
#include <math.h>

#include "gs_test.h"

#include "analysis/issue_spans.h"

/* A block on SM `sm` running [start_ns, end_ns) of globaltimer, with that SM's clock64 at
 * 2 cycles per ns plus the SM's own offset. */
static gs_block_stamp block(unsigned sm, uint64_t offset, uint64_t start_ns, uint64_t end_ns)
{
    gs_block_stamp b = {offset + 2 * start_ns, offset + 2 * end_ns, start_ns, end_ns, sm, sm};
    return b;
}

/* Two SMs of two blocks each, every SM counter offset differently, one block 1000 ns late: each
 * SM's span is earliest start to latest end, in its own cycles; all checks pass. */
static void test_two_blocks_per_sm(void **state)
{
    (void)state;
    gs_block_stamp st[4] = {
        block(7, 1000000, 32000, 82000), block(3, 5000000, 32000, 82016),
        block(7, 1000000, 33024, 83008), block(3, 5000000, 32000, 81984),
    };
    gs_span_summary s;
    size_t bad = 99;
    assert_int_equal(gs_issue_spans(st, 4, 0, &s, &bad), 0);
    assert_int_equal(s.sms, 2);
    assert_int_equal(s.max_blocks_per_sm, 2);
    assert_double_equal(s.resolution_ns, 16, 0);     /* every value is a multiple of 16 ns apart */
    assert_double_equal(s.clock_khz, 2e6, 1e-6);
    /* SM 3: 32000..82016 ns = 100032 cycles; SM 7: 32000..83008 = 102016 */
    assert_double_equal(s.sum_sm_cycles, 100032 + 102016, 1e-6);
    assert_double_equal(s.max_sm_cycles, 102016, 1e-6);
    assert_double_equal(s.sum_sm_clock64_cycles, 100032 + 102016, 1e-6);
    assert_double_equal(s.kernel_cycles, 102016, 1e-6);
    /* SM 3: (50016 + 49984) / 50016; SM 7: (50000 + 49984) / 51008; the median is the mean */
    assert_double_equal(s.conc_blocks, (100000.0 / 50016 + 99984.0 / 51008) / 2, 1e-9);
    assert_double_equal(s.start_spread_cycles, (0 + 2048) / 2.0, 1e-6);
    assert_int_equal(s.clock_mismatch_sms, 0);
    assert_int_equal(s.moved_blocks, 0);
    assert_true(gs_issue_spans_grouping_ok(&s, 2, 132));
    assert_false(gs_issue_spans_grouping_ok(&s, 1, 132));  /* 2 blocks on one SM, limit 1 */
    assert_false(gs_issue_spans_grouping_ok(&s, 2, 1));    /* more SM ids than SMs */
}

/* Two blocks with one SM id whose counters differ by 20000 cycles (not one physical counter): the
 * clock64 span across them is wrong by that much, the globaltimer span is right, and the SM is
 * counted as a mismatch. Breaking the per-SM clock (using clock64 across blocks) fails this. */
static void test_clock64_not_comparable(void **state)
{
    (void)state;
    gs_block_stamp st[2] = {block(5, 1000000, 0, 50000), block(5, 1020000, 0, 50000)};
    gs_span_summary s;
    assert_int_equal(gs_issue_spans(st, 2, 32, &s, NULL), 0);
    assert_double_equal(s.sum_sm_cycles, 100000, 1e-6);
    assert_double_equal(s.sum_sm_clock64_cycles, 120000, 1e-6);
    assert_int_equal(s.clock_mismatch_sms, 1);
    assert_double_equal(s.worst_mismatch, 0.2, 1e-9);
    /* within tolerance (1% + 4 steps): no mismatch */
    st[0] = block(5, 1000000, 0, 50000);
    st[1] = block(5, 1000200, 0, 50000);
    assert_int_equal(gs_issue_spans(st, 2, 32, &s, NULL), 0);
    assert_int_equal(s.clock_mismatch_sms, 0);
}

/* Blocks that start one after the other on one SM (late dispatch): the SM's span covers both,
 * the concurrency is 1, and the whole-kernel span is the union. */
static void test_late_blocks(void **state)
{
    (void)state;
    gs_block_stamp st[3] = {block(0, 0, 0, 10000), block(0, 0, 10000, 20000),
                            block(1, 77, 5000, 15000)};
    gs_span_summary s;
    assert_int_equal(gs_issue_spans(st, 3, 1, &s, NULL), 0);
    assert_double_equal(s.sum_sm_cycles, 40000 + 20000, 1e-6);
    assert_double_equal(s.kernel_cycles, 40000, 1e-6);
    assert_double_equal(s.conc_blocks, 1, 1e-12);  /* one after the other: 1 on average */
}

/* A block whose SM id changed: grouping not trusted. Malformed stamps: -1 and the index. */
static void test_moved_and_bad(void **state)
{
    (void)state;
    gs_block_stamp st[2] = {block(0, 0, 0, 1000), block(1, 0, 0, 1000)};
    st[1].smid_end = 2;
    gs_span_summary s;
    size_t bad = 0;
    assert_int_equal(gs_issue_spans(st, 2, 1, &s, &bad), 0);
    assert_int_equal(s.moved_blocks, 1);
    assert_false(gs_issue_spans_grouping_ok(&s, 0, 132));
    st[1] = block(1, 0, 0, 1000);
    st[1].end_ns = st[1].start_ns;  /* no time elapsed */
    assert_int_equal(gs_issue_spans(st, 2, 1, &s, &bad), -1);
    assert_int_equal(bad, 1);
    st[1] = block(1, 10, 0, 1000);
    st[1].end_cycles = st[1].start_cycles - 1;
    assert_int_equal(gs_issue_spans(st, 2, 1, &s, &bad), -1);
    assert_int_equal(gs_issue_spans(st, 0, 1, &s, &bad), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_blocks_per_sm),
        cmocka_unit_test(test_clock64_not_comparable),
        cmocka_unit_test(test_late_blocks),
        cmocka_unit_test(test_moved_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
