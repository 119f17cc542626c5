/* Unit tests of src/util/opts.c: typed values, units, ranges, choices and their error messages. */
#include <string.h>

#include "gs_test.h"

#include "util/opts.h"

static void test_bytes(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(gs_parse_bytes("64KB", &v), 0);
    assert_int_equal(v, 65536);
    assert_int_equal(gs_parse_bytes("2MiB", &v), 0);
    assert_int_equal(v, 2u << 20);
    assert_int_equal(gs_parse_bytes("1TB", &v), 0);
    assert_true(v == 1ull << 40);
    assert_int_equal(gs_parse_bytes("1.5k", &v), 0);
    assert_int_equal(v, 1536);
    assert_int_equal(gs_parse_bytes("128", &v), 0);
    assert_int_equal(v, 128);
    assert_int_equal(gs_parse_bytes("-4KB", &v), -1);
    assert_int_equal(gs_parse_bytes("12QB", &v), -1);
    assert_int_equal(gs_parse_bytes("", &v), -1);
    assert_int_equal(gs_parse_bytes("0.3B", &v), -1);
    char buf[32];
    gs_format_bytes(65536, buf, sizeof buf);
    assert_string_equal(buf, "64 KiB");
    gs_format_bytes(50331648, buf, sizeof buf);
    assert_string_equal(buf, "48 MiB");
    gs_format_bytes(100, buf, sizeof buf);
    assert_string_equal(buf, "100 B");
}

static void test_parse(void **state)
{
    (void)state;
    long long n = 0;
    uint64_t size = 0;
    const char *target = NULL;
    bool flag = false, help = false;
    const gs_opt opts[] = {
        {"n", GS_OPT_INT, &n, "N", "count", NULL, 1, 10},
        {"size", GS_OPT_BYTES, &size, "BYTES", "size", NULL, 0, 0},
        {"target", GS_OPT_CHOICE, &target, "T", "target", "l1|l2|all", 0, 0},
        {"fast", GS_OPT_FLAG, &flag, NULL, "flag", NULL, 0, 0},
    };
    char *argv[] = {"--n", "7", "--size=16KB", "--target", "l2", "--fast"};
    gs_error err;
    assert_int_equal(gs_opts_parse(opts, 4, 6, argv, &help, NULL, 0, NULL, &err), 0);
    assert_int_equal(n, 7);
    assert_int_equal(size, 16384);
    assert_string_equal(target, "l2");
    assert_true(flag);

    char *bad_range[] = {"--n", "70"};
    assert_int_equal(gs_opts_parse(opts, 4, 2, bad_range, &help, NULL, 0, NULL, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--n"));
    assert_non_null(strstr(err.msg, "1 to 10"));
    char *bad_choice[] = {"--target", "l3"};
    assert_int_equal(gs_opts_parse(opts, 4, 2, bad_choice, &help, NULL, 0, NULL, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "l1|l2|all"));
    char *unknown[] = {"--sise", "4"};
    assert_int_equal(gs_opts_parse(opts, 4, 2, unknown, &help, NULL, 0, NULL, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--sise"));
    char *missing[] = {"--size"};
    assert_int_equal(gs_opts_parse(opts, 4, 1, missing, &help, NULL, 0, NULL, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "needs a value"));
    char *helpme[] = {"--help"};
    assert_int_equal(gs_opts_parse(opts, 4, 1, helpme, &help, NULL, 0, NULL, &err), 0);
    assert_true(help);
    char *pos[] = {"extra"};
    assert_int_equal(gs_opts_parse(opts, 4, 1, pos, &help, NULL, 0, NULL, &err), GS_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
