/* Tests of src/util/suggest.c: the edit distance (a swap of neighbours is one edit), typos found
 * among known words, abbreviations named only when one word fits, and no suggestion for a word
 * far from all of them. */
#include <string.h>

#include "gs_test.h"

#include "util/suggest.h"

static int dist(const char *a, const char *b)
{
    return gs_edit_distance(a, strlen(a), b, strlen(b));
}

static void distances(void **state)
{
    (void)state;
    assert_int_equal(dist("", ""), 0);
    assert_int_equal(dist("cache", "cache"), 0);
    assert_int_equal(dist("cahce", "cache"), 1);          /* swapped neighbours */
    assert_int_equal(dist("taget", "target"), 1);
    assert_int_equal(dist("devise", "device"), 1);
    assert_int_equal(dist("", "abc"), 3);
    assert_int_equal(dist("kitten", "sitting"), 3);
}

static const char *suggest(const char *word, const char *list, char *buf, size_t len)
{
    gs_suggest s;
    gs_suggest_init(&s, word);
    gs_suggest_offer_list(&s, list);
    return gs_suggest_text(&s, NULL, buf, len);
}

static void suggestions(void **state)
{
    (void)state;
    char buf[96];
    const char *probes = "cache|clock|smem-banks|pchase|tlb";
    assert_string_equal(suggest("cahce", probes, buf, sizeof buf), " (did you mean 'cache'?)");
    assert_string_equal(suggest("clok", probes, buf, sizeof buf), " (did you mean 'clock'?)");
    assert_string_equal(suggest("md", "text|markdown|csv", buf, sizeof buf),
                        " (did you mean 'markdown'?)");
    assert_string_equal(suggest("frobnicate", probes, buf, sizeof buf), "");
    assert_string_equal(suggest("xyz", probes, buf, sizeof buf), "");
    /* "c" abbreviates cache, clock and csv alike: no suggestion. */
    assert_string_equal(suggest("c", "cache|clock|csv", buf, sizeof buf), "");
    gs_suggest s;
    gs_suggest_init(&s, "taget");
    gs_suggest_offer(&s, "target", 6);
    gs_suggest_offer(&s, "trace", 5);
    assert_string_equal(gs_suggest_text(&s, "--", buf, sizeof buf), " (did you mean '--target'?)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distances),
        cmocka_unit_test(suggestions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
