/* Tests of src/util/units.c: binary prefixes for sizes, MHz for clocks, decimal units as given,
 * and an interval in its value's unit with the value to the interval's precision. */
#include <math.h>
#include <string.h>

#include "gs_test.h"

#include "util/units.h"

static void sizes_take_binary_prefixes(void **state)
{
    (void)state;
    char buf[64];
    gs_units_bytes(50331648, buf, sizeof buf);
    assert_string_equal(buf, "48 MiB");
    gs_units_bytes(79.65 * 1073741824.0, buf, sizeof buf);
    assert_string_equal(buf, "79.65 GiB");
    gs_units_bytes(211662.5, buf, sizeof buf);
    assert_string_equal(buf, "206.7 KiB");
    gs_units_bytes(512, buf, sizeof buf);
    assert_string_equal(buf, "512 B");
    gs_units_bytes(1023, buf, sizeof buf);
    assert_string_equal(buf, "1023 B");
    gs_units_bytes(1024, buf, sizeof buf);
    assert_string_equal(buf, "1 KiB");
    gs_units_bytes(0, buf, sizeof buf);
    assert_string_equal(buf, "0 B");
}

static void clocks_in_mhz_rates_as_given(void **state)
{
    (void)state;
    char buf[64];
    gs_units_value(1980000.0, "kHz", buf, sizeof buf);
    assert_string_equal(buf, "1980 MHz");
    gs_units_value(2994.7, "GB/s", buf, sizeof buf);
    assert_string_equal(buf, "2995 GB/s");
    gs_units_value(0.25, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "0.25 cycles");
    gs_units_value(221.94, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "221.9 cycles");
    gs_units_value(32, "", buf, sizeof buf);
    assert_string_equal(buf, "32");
    gs_units_value(127.99999, "", buf, sizeof buf);
    assert_string_equal(buf, "128");
    gs_units_value(5.2e-06, "ns", buf, sizeof buf);
    assert_string_equal(buf, "5.2e-06 ns");
}

static void intervals_in_the_values_unit(void **state)
{
    (void)state;
    char buf[64];
    gs_units_interval(50331648, 4.68e5, "B", buf, sizeof buf);
    assert_string_equal(buf, "48.00 MiB ± 0.45");
    gs_units_interval(212.0, 44, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "212 cycles ± 44");
    gs_units_interval(245.2, 3.59, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "245.2 cycles ± 3.6");
    gs_units_interval(1980000.0, 25, "kHz", buf, sizeof buf);
    assert_string_equal(buf, "1980.000 MHz ± 0.025");
    gs_units_interval(4, 5.56e-05, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "4 cycles ± 5.6e-05");
    gs_units_interval(16, 0, "KiB", buf, sizeof buf);
    assert_string_equal(buf, "16 KiB");
    gs_units_interval(16, NAN, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "16 cycles");
    gs_units_interval(1.04, 0.00313, "", buf, sizeof buf);
    assert_string_equal(buf, "1.0400 ± 0.0031");
    /* 0.0999 rounds to 0.10: two decimals, not three. */
    gs_units_interval(220.029, 0.0999, "cycles", buf, sizeof buf);
    assert_string_equal(buf, "220.03 cycles ± 0.10");
    gs_units_halfwidth(136, buf, sizeof buf);
    assert_string_equal(buf, "136");
    gs_units_halfwidth(0.45, buf, sizeof buf);
    assert_string_equal(buf, "0.45");
}

static void odd_values(void **state)
{
    (void)state;
    char buf[64];
    gs_units_value(NAN, "B", buf, sizeof buf);
    assert_string_equal(buf, "nan B");
    gs_units_value(-2048, "B", buf, sizeof buf);
    assert_string_equal(buf, "-2 KiB");
    gs_units_value(1e300, "B", buf, sizeof buf);
    assert_non_null(strstr(buf, "PiB"));
    char tiny[6];
    gs_units_value(50331648, "B", tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_take_binary_prefixes),
        cmocka_unit_test(clocks_in_mhz_rates_as_given),
        cmocka_unit_test(intervals_in_the_values_unit),
        cmocka_unit_test(odd_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
