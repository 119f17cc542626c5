/* Tests of src/util/dynlib.c and src/cuda/cupti_lib.c: a library that is absent, or present
 * without a symbol a capability needs, turns the capability off with a reason naming what is
 * missing; a present one resolves. */
#include <string.h>

#include "gs_test.h"

#include "cuda/cupti_lib.h"
#include "util/dynlib.h"

static void absent_library_says_which_names(void **state)
{
    (void)state;
    const char *const names[] = {"libgs-absent-a.so.9", "libgs-absent-b.so", NULL};
    const char *const dirs[] = {"/nonexistent/lib64", NULL};
    void *h = (void *)1;
    char path[64] = "", why[256] = "";
    assert_int_equal(gs_dynlib_open(names, dirs, &h, path, sizeof path, why, sizeof why), -1);
    assert_null(h);
    assert_non_null(strstr(why, "libgs-absent-a.so.9, libgs-absent-b.so"));
    assert_non_null(strstr(why, "not found"));
}

static void missing_symbol_is_named(void **state)
{
    (void)state;
    const char *const names[] = {"libm.so.6", NULL};
    const char *const have[] = {"cos", "sqrt", NULL};
    const char *const lack[] = {"cos", "gs_no_such_symbol", NULL};
    void *h = NULL, *fns[2];
    char path[64], why[256] = "";
    assert_int_equal(gs_dynlib_open(names, NULL, &h, path, sizeof path, why, sizeof why), 0);
    assert_string_equal(path, "libm.so.6");
    assert_int_equal(gs_dynlib_resolve(h, have, fns, why, sizeof why), 0);
    assert_non_null(fns[0]);
    assert_non_null(fns[1]);
    assert_int_equal(gs_dynlib_resolve(h, lack, fns, why, sizeof why), -1);
    assert_non_null(strstr(why, "lacks gs_no_such_symbol"));
    gs_dynlib_close(h);
}

static void cupti_absent_turns_counters_off(void **state)
{
    (void)state;
    const char *const names[] = {"libgs-absent-cupti.so.13", NULL};
    const char *const dirs[] = {"/nonexistent", NULL};
    gs_cupti_lib lib;
    char why[400] = "";
    assert_int_equal(gs_cupti_lib_load(names, dirs, &lib, why, sizeof why), -1);
    assert_null(lib.handle);
    assert_non_null(strstr(why, "libcupti not found (libgs-absent-cupti.so.13"));
}

static void cupti_without_range_profiler_is_too_old(void **state)
{
    (void)state;
    const char *const names[] = {"libm.so.6", NULL};   /* a library without CUPTI's symbols */
    gs_cupti_lib lib;
    char why[400] = "";
    assert_int_equal(gs_cupti_lib_load(names, NULL, &lib, why, sizeof why), -1);
    assert_null(lib.handle);
    assert_non_null(strstr(why, "lacks cuptiGetVersion"));
    assert_non_null(strstr(why, "12.6"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(absent_library_says_which_names),
        cmocka_unit_test(missing_symbol_is_named),
        cmocka_unit_test(cupti_absent_turns_counters_off),
        cmocka_unit_test(cupti_without_range_profiler_is_too_old),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
