/* Unit tests of src/cli/device_list.c: --device lists ("cuda:0,2", "sim:a,b", "cuda:all")
 * expand into one spec per device, with duplicates and empty lists refused. */
#include <string.h>

#include "gs_test.h"

#include "cli/cli.h"

static void test_lists_expand(void **state)
{
    (void)state;
    char list[8][GS_DEVICE_SPEC_LEN];
    int n = 0;
    gs_error err;
    assert_false(gs_cli_is_device_list("cuda:0"));
    assert_false(gs_cli_is_device_list(NULL));
    assert_true(gs_cli_is_device_list("cuda:all"));
    assert_true(gs_cli_is_device_list("cuda:0,2"));
    assert_int_equal(gs_cli_expand_devices("cuda:0,2", list, 8, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(list[0], "cuda:0");
    assert_string_equal(list[1], "cuda:2");
    assert_int_equal(gs_cli_expand_devices("sim:hopper,fermi,sim:/tmp/m.json", list, 8, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(list[1], "sim:fermi");
    assert_string_equal(list[2], "sim:/tmp/m.json");
}

static void test_lists_refused(void **state)
{
    (void)state;
    char list[2][GS_DEVICE_SPEC_LEN];
    int n = 0;
    gs_error err;
    assert_int_equal(gs_cli_expand_devices("cuda:0,0", list, 2, &n, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "twice"));
    assert_int_equal(gs_cli_expand_devices("cuda:0,1,2", list, 2, &n, &err), GS_ERR_USAGE);
    assert_int_equal(gs_cli_expand_devices(",", list, 2, &n, &err), GS_ERR_USAGE);
    /* the tests run with CUDA_VISIBLE_DEVICES empty: no device to expand "all" into */
    assert_int_not_equal(gs_cli_expand_devices("cuda:all", list, 2, &n, &err), 0);
    assert_int_equal(n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_expand),
        cmocka_unit_test(test_lists_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
