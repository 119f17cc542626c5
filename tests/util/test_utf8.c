/* Tests of src/util/utf8.c: valid UTF-8 is kept, each invalid byte becomes \xNN, and a short
 * buffer never ends inside a character. */
#include <string.h>

#include "gs_test.h"

#include "util/utf8.h"

static void keeps_valid_text(void **state)
{
    (void)state;
    char out[64];
    gs_utf8_copy(out, sizeof out, "sim:h\xc3\xa9lium \xe2\x82\xac \xf0\x9f\x98\x80");
    assert_string_equal(out, "sim:h\xc3\xa9lium \xe2\x82\xac \xf0\x9f\x98\x80");
    assert_true(gs_utf8_valid(out));
}

static void escapes_invalid_bytes(void **state)
{
    (void)state;
    char out[64];
    gs_utf8_copy(out, sizeof out, "a\xff" "b\xc3(\xe0\x80\x80\xed\xa0\x80\xf4\x90\x80\x80");
    assert_string_equal(out, "a\\xFFb\\xC3(\\xE0\\x80\\x80\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80");
    assert_true(gs_utf8_valid(out));
    assert_false(gs_utf8_valid("a\xff"));
    assert_false(gs_utf8_valid("\xc0\xaf"));                  /* overlong '/' */
    assert_false(gs_utf8_valid("\xe2\x82"));                  /* cut short */
}

static void short_buffers_keep_whole_characters(void **state)
{
    (void)state;
    char out[4];
    gs_utf8_copy(out, sizeof out, "ab\xc3\xa9");
    assert_string_equal(out, "ab");
    gs_utf8_copy(out, sizeof out, "a\xff");
    assert_string_equal(out, "a");
    gs_utf8_copy(out, 1, "abc");
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keeps_valid_text),
        cmocka_unit_test(escapes_invalid_bytes),
        cmocka_unit_test(short_buffers_keep_whole_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
