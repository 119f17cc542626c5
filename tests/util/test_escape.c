/* Tests of src/util/escape.c: the escaping rule of each output format (text, markdown, CSV,
 * HTML) and of error messages (gs_fail). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "util/error.h"
#include "util/escape.h"

/* What fn writes for s, in a static buffer. */
static const char *written(void (*fn)(FILE *, const char *), const char *s)
{
    static char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    fn(f, s);
    fclose(f);
    return buf;
}

static void text_shows_control_characters(void **state)
{
    (void)state;
    assert_string_equal(gs_esc("x\n-visualizer_outputfile /home/v/.bashrc\n#"),
                        "x\\n-visualizer_outputfile /home/v/.bashrc\\n#");
    assert_string_equal(gs_esc("a\tb\rc\x1b[2J\x07\x7f"), "a\\tb\\rc\\x1b[2J\\x07\\x7f");
    /* C1 controls (CSI), bidirectional overrides and invalid bytes are shown too */
    assert_string_equal(gs_esc("\xc2\x9b" "31m \xe2\x80\xae" "abc \xff"),
                        "\\u009b31m \\u202eabc \\xff");
    /* everything else is kept: UTF-8 text, backslashes, quotes, pipes */
    assert_string_equal(gs_esc("h\xc3\xa9lium \xe2\x82\xac \\n 'q' \"d\" |"),
                        "h\xc3\xa9lium \xe2\x82\xac \\n 'q' \"d\" |");
    assert_string_equal(gs_esc(NULL), "");
    assert_string_equal(written(gs_escape_fputs, "a\nb"), "a\\nb");
}

static void text_buffers_are_whole_and_reused_in_turn(void **state)
{
    (void)state;
    const char *kept[GS_ESC_SLOTS];
    char want[32];
    for (int i = 0; i < GS_ESC_SLOTS; i++) {
        snprintf(want, sizeof want, "s%d\n", i);
        kept[i] = gs_esc(want);
    }
    for (int i = 0; i < GS_ESC_SLOTS; i++) {
        snprintf(want, sizeof want, "s%d\\n", i);
        assert_string_equal(kept[i], want);   /* all alive at once */
    }
    size_t n = 5000;
    char *long_text = malloc(n + 1);
    memset(long_text, '\n', n);
    long_text[n] = '\0';
    assert_int_equal(strlen(gs_esc(long_text)), 2 * n);   /* never truncated */
    free(long_text);
    char small[4];
    gs_escape_text(small, sizeof small, "ab\ncd");
    assert_string_equal(small, "ab");                     /* an escape is never cut */
}

static void markdown_escapes_pipes(void **state)
{
    (void)state;
    assert_string_equal(written(gs_escape_md, "a|b\n| c"), "a\\|b\\n\\| c");
}

static void csv_neutralises_formulas(void **state)
{
    (void)state;
    assert_string_equal(written(gs_escape_csv, "=HYPERLINK(\"http://x\",\"y\")"),
                        "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    assert_string_equal(written(gs_escape_csv, "+1+cmd"), "\"'+1+cmd\"");
    assert_string_equal(written(gs_escape_csv, "-2+3"), "\"'-2+3\"");
    assert_string_equal(written(gs_escape_csv, "@SUM(A1)"), "\"'@SUM(A1)\"");
    assert_string_equal(written(gs_escape_csv, "\tx"), "\"\\tx\"");   /* visible, not a tab */
    assert_string_equal(written(gs_escape_csv, "a\nb"), "\"a\\nb\"");
    /* plain numbers stay numbers; text that does not start a formula is only quoted */
    assert_string_equal(written(gs_escape_csv, "-3.5"), "\"-3.5\"");
    assert_string_equal(written(gs_escape_csv, "+1e-3"), "\"+1e-3\"");
    assert_string_equal(written(gs_escape_csv, "l1 (B)"), "\"l1 (B)\"");
    assert_true(gs_csv_is_formula("-"));
    assert_true(gs_csv_is_formula("-inf"));
    assert_true(gs_csv_is_formula("-0x10"));
    assert_true(gs_csv_is_formula("\r1"));
    assert_false(gs_csv_is_formula("-12"));
    assert_false(gs_csv_is_formula(""));
    assert_false(gs_csv_is_formula(NULL));
}

static void html_escapes_markup(void **state)
{
    (void)state;
    assert_string_equal(written(gs_escape_html, "<script>&\"'\x1b"),
                        "&lt;script&gt;&amp;&quot;&#39;&#xFFFD;");
}

static void error_messages_show_control_characters(void **state)
{
    (void)state;
    gs_error err;
    gs_fail(&err, GS_ERR_USAGE, "unknown probe '%s'", "x\x1b]0;pwned\x07\nfake line");
    assert_string_equal(err.msg, "unknown probe 'x\\x1b]0;pwned\\x07\\nfake line'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_shows_control_characters),
        cmocka_unit_test(text_buffers_are_whole_and_reused_in_turn),
        cmocka_unit_test(markdown_escapes_pipes),
        cmocka_unit_test(csv_neutralises_formulas),
        cmocka_unit_test(html_escapes_markup),
        cmocka_unit_test(error_messages_show_control_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
