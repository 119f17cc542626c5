/* The command line's parser: the command word among options, options a command does not take,
 * a probe's options kept for the probe, the options given (report --from refuses those of a
 * measurement), suggestions for mistyped options, and the option tables' sentinels. */
#include "gs_test.h"

#include <string.h>

#include "cli/cli.h"


static void reset(void)
{
    memset(&gs_args, 0, sizeof gs_args);
    gs_args.seed = 1;
}

/* Every option table ends with its sentinel, so no count is written anywhere: each command with
 * options and each probe has rows, and the last row before the sentinel has a name. */
static void test_table_counts(void **state)
{
    (void)state;
    const char *with[] = {"report", "plot", "verify", "export", "help", "html", "fleet",
                          "compare"};
    for (size_t i = 0; i < sizeof with / sizeof *with; i++) {
        int n = gs_opts_len(gs_command_find(with[i])->opts);
        assert_true(n > 0);
        assert_non_null(gs_command_find(with[i])->opts[n - 1].name);
    }
    assert_int_equal(gs_opts_len(gs_command_find("list")->opts), 0);
    for (int i = 0; i < gs_probe_count; i++)
        assert_true(gs_opts_len(gs_probes[i]->opts) > 0);
    assert_null(gs_command_find("frobnicate"));
}

static void test_command_word_after_options(void **state)
{
    (void)state;
    char *a[] = {"gpusonar", "--device", "sim", "--json=x.json", "-q", "run", "clock"};
    assert_int_equal(gs_cli_command_index(7, a), 5);
    char *b[] = {"gpusonar", "--target", "l1", "run", "cache"}; /* a probe option's value */
    assert_int_equal(gs_cli_command_index(5, b), 3);
    char *c[] = {"gpusonar", "--thorough", "--seed", "3"};
    assert_int_equal(gs_cli_command_index(4, c), 0);
}

static void test_unused_common_option_refused(void **state)
{
    (void)state;
    reset();
    gs_error err;
    char *a[] = {"--seed", "3"};
    assert_int_equal(gs_cli_parse(gs_command_find("models"), 2, a, false, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "does not apply to 'models'"));
    reset();
    char *b[] = {"-q"};
    assert_int_equal(gs_cli_parse(gs_command_find("list"), 1, b, false, &err), GS_ERR_USAGE);
}

static void test_run_keeps_probe_options(void **state)
{
    (void)state;
    reset();
    gs_error err;
    char *a[] = {"--target", "l1", "cache", "--seed", "7", "--structure=average"};
    assert_int_equal(gs_cli_parse(gs_command_find("run"), 6, a, true, &err), 0);
    assert_int_equal(gs_args.npositional, 1);
    assert_string_equal(gs_args.positional[0], "cache");
    assert_int_equal(gs_args.nrest, 3);
    assert_string_equal(gs_args.rest[0], "--target");
    assert_string_equal(gs_args.rest[1], "l1");
    assert_string_equal(gs_args.rest[2], "--structure=average");
    assert_int_equal((int)gs_args.seed, 7);
}

static void test_words_beyond_positionals(void **state)
{
    (void)state;
    reset();
    gs_error err;
    char *a[] = {"a.json", "b.json", "c.json"};
    assert_int_equal(gs_cli_parse(gs_command_find("compare"), 3, a, false, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "unexpected argument 'c.json'"));
    reset();
    assert_int_equal(gs_cli_parse(gs_command_find("compare"), 2, a, false, &err), 0);
    assert_int_equal(gs_args.npositional, 2);
}

static void test_options_given(void **state)
{
    (void)state;
    reset();
    gs_error err;
    static const char *const measuring[] = {"json", "budget", "quiet", NULL};
    static const char *const budget_only[] = {"budget", NULL};
    char *a[] = {"--from", "doc.json", "-q", "--format", "markdown"};
    assert_int_equal(gs_cli_parse(gs_command_find("report"), 5, a, false, &err), 0);
    assert_string_equal(gs_cli_given(measuring), "quiet");
    assert_null(gs_cli_given(budget_only));
    reset();
    char *b[] = {"--from", "doc.json", "--budget", "-5"};
    assert_int_equal(gs_cli_parse(gs_command_find("report"), 4, b, false, &err), 0);
    assert_string_equal(gs_cli_given(budget_only), "budget");
}

static void test_mistyped_option_suggested(void **state)
{
    (void)state;
    reset();
    gs_error err;
    char *a[] = {"--formt", "csv"};
    assert_int_equal(gs_cli_parse(gs_command_find("fleet"), 2, a, false, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "'--formt'"));
    assert_non_null(strstr(err.msg, "did you mean '--format'?"));
    char buf[96];
    assert_string_equal(gs_cli_suggest_option(NULL, "devise", 6, buf, sizeof buf),
                        " (did you mean '--device'?)");
    assert_true(gs_cli_option_known("target", 6));            /* a probe's option */
    assert_false(gs_cli_option_known("devise", 6));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_counts),
        cmocka_unit_test(test_command_word_after_options),
        cmocka_unit_test(test_unused_common_option_refused),
        cmocka_unit_test(test_run_keeps_probe_options),
        cmocka_unit_test(test_words_beyond_positionals),
        cmocka_unit_test(test_options_given),
        cmocka_unit_test(test_mistyped_option_suggested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
