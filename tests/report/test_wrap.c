/* Tests of src/report/wrap.c: wrapping at word boundaries counted in characters, the first
 * clause of a reason, and table cells that are never cut inside a word. */
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "report/wrap.h"

static char *wrapped(const char *text, int column, int indent, int width)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    gs_wrap_print(f, text, column, indent, width);
    fclose(f);
    return buf;
}

static void wraps_at_words(void **state)
{
    (void)state;
    char *s = wrapped("the quick brown fox jumps over the lazy dog", 10, 4, 24);
    assert_string_equal(s, "the quick\n    brown fox jumps over\n    the lazy dog\n");
    free(s);
    /* λ and ± count as one column each. */
    s = wrapped("λλλλ ±±±± aaaa", 0, 0, 9);
    assert_string_equal(s, "λλλλ ±±±±\naaaa\n");
    free(s);
    /* A word longer than a line stands alone, whole. */
    s = wrapped("a 0123456789abcdef b", 0, 2, 8);
    assert_string_equal(s, "a\n  0123456789abcdef\n  b\n");
    free(s);
    s = wrapped("", 0, 2, 8);
    assert_string_equal(s, "\n");
    free(s);
}

static void first_clause(void **state)
{
    (void)state;
    char buf[128];
    assert_true(gs_wrap_first_clause("one warp is issue-bound at ILP 4: a group of 4 takes 8 "
                                     "cycles", buf, sizeof buf));
    assert_string_equal(buf, "one warp is issue-bound at ILP 4");
    /* Inside parentheses, or before 16 characters, a colon does not end the clause. */
    assert_true(gs_wrap_first_clause("the L2 (50334592 B: average) holds more lines; sets are "
                                     "not from traces", buf, sizeof buf));
    assert_string_equal(buf, "the L2 (50334592 B: average) holds more lines");
    assert_false(gs_wrap_first_clause("no step found", buf, sizeof buf));
    assert_string_equal(buf, "no step found");
    assert_false(gs_wrap_first_clause("version 1.5 of the table holds", buf, sizeof buf));
    assert_false(gs_wrap_first_clause("short: then the rest of it", buf, sizeof buf));
    assert_string_equal(buf, "short: then the rest of it");
    /* A clause longer than the buffer ends at a word. */
    char small[12];
    assert_true(gs_wrap_first_clause("constant loop bound, 256 threads", small, sizeof small));
    assert_string_equal(small, "constant");
}

static void cells_keep_whole_words(void **state)
{
    (void)state;
    char buf[64];
    gs_wrap_cell("copy, 16-byte elements, constant loop bound, 256 threads per block", 40, buf,
                 sizeof buf);
    assert_string_equal(buf, "copy, 16-byte elements, constant loop…");
    gs_wrap_cell("hslru", 13, buf, sizeof buf);
    assert_string_equal(buf, "hslru");
    gs_wrap_cell("abcdefghijklmnop", 6, buf, sizeof buf);
    assert_string_equal(buf, "abcde…");
    char tiny[8];
    gs_wrap_cell("constant loop bound", 40, tiny, sizeof tiny);
    assert_string_equal(tiny, "cons…");     /* the buffer is the limit */
    gs_wrap_cell("ab cd", 40, tiny, sizeof tiny);
    assert_string_equal(tiny, "ab cd");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wraps_at_words),
        cmocka_unit_test(first_clause),
        cmocka_unit_test(cells_keep_whole_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
