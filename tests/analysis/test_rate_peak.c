/* Unit tests of the rate peaks (src/analysis/rate_peak.c) and of the check over result records
 * (src/probes/peak_check.c): which limit bounds which figure, the peak in each unit, and a rate
 * above its peak beyond its interval refused with the reason, one within it kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "analysis/rate_peak.h"
#include "probes/peak_check.h"

static gs_peak_device h200(void)
{
    gs_peak_device d = {.cc_major = 9, .cc_minor = 0, .sm_count = 132, .warp_size = 32,
                        .clock_khz = 1980000, .mem_clock_khz = 3201000, .mem_bus_bits = 6016,
                        .l2_bytes = 62914560};
    return d;
}

static double peak_of(const gs_peak_device *d, const char *probe, const char *name,
                      const char *unit, double footprint)
{
    gs_peak p;
    char why[200];
    if (gs_rate_peak(d, probe, name, unit, footprint, &p, why, sizeof why))
        return -1;
    assert_true(strlen(p.source) > 0);
    return p.value;
}

static void test_peaks_per_unit(void **state)
{
    (void)state;
    gs_peak_device d = h200();
    /* 128 B per clock per SM x 132 SMs x 1.98 GHz */
    assert_true(fabs(peak_of(&d, "mem-bandwidth", "l1_read_gbps", "GB/s", 0) - 33454.08) < 0.01);
    assert_true(fabs(peak_of(&d, "mem-bandwidth", "smem_read_gbps", "GB/s", 0) - 33454.08) < 0.01);
    /* 2 x 3201 MHz x 6016 bit / 8 */
    assert_true(fabs(peak_of(&d, "mem-bandwidth", "dram_read_gbps", "GB/s", 0) - 4814.304) < 0.001);
    assert_true(fabs(peak_of(&d, "mem-bandwidth", "read_16B_dram_gbps", "GB/s", 0) - 4814.304) <
                0.001);
    assert_true(peak_of(&d, "mem-bandwidth", "dram_peak_gbps", "GB/s", 0) < 0);
    /* fp32 128 lanes, int32 64, fp64 64, SFU 16, HFMA2 128 */
    assert_true(fabs(peak_of(&d, "pipeline", "ffma_ilp4_gops", "Gop/s", 0) - 33454.08) < 0.01);
    assert_true(fabs(peak_of(&d, "pipeline", "dfma_ilp1_gops", "Gop/s", 0) - 16727.04) < 0.01);
    assert_true(peak_of(&d, "roofline", "iadd_peak_ops_per_cycle_per_sm", "thread instr/cycle/SM",
                        0) == 64);
    assert_true(peak_of(&d, "pipeline", "sfu-sin_peak_ops_per_cycle_per_sm",
                        "thread instr/cycle/SM", 0) == 16);
    assert_true(peak_of(&d, "pipeline", "hfma2_ilp2_peak_ipc", "warp instr/cycle/SM", 0) == 4);
    /* no limit of its own: the schedulers' 128 thread instructions per clock */
    assert_true(peak_of(&d, "pipeline", "sw-sin_peak_ops_per_cycle_per_sm",
                        "thread instr/cycle/SM", 0) == 128);
    assert_true(peak_of(&d, "atomics", "global_add_u32_distinct_ops_per_clock_per_sm",
                        "atomics/clock/SM", 0) == 128);
    /* the pipeline's mma.sync is f16: the whitepaper's 4096 dense flops per clock per SM */
    assert_true(peak_of(&d, "pipeline", "mma_peak_flops_per_cycle_per_sm", "flop/cycle/SM", 0) ==
                4096);
    assert_true(peak_of(&d, "tensor", "wgmma_e4m3_flops_per_clock_per_sm", "flop/clock/SM", 0) ==
                8192);
    assert_true(peak_of(&d, "tensor", "wgmma_e4m3_peak_flops_per_clock_per_sm", "flop/clock/SM",
                        0) < 0);
    /* a rate per SM is not multiplied by the SMs */
    assert_true(fabs(peak_of(&d, "cluster", "local_smem_gbps_per_sm", "GB/s", 0) - 253.44) < 1e-9);
    /* the bandwidth probe: DRAM's peak only for a working set of four L2s and more */
    assert_true(fabs(peak_of(&d, "bandwidth", "copy_4B_constant_gbps", "GB/s", 16 * 62914560.0) -
                     4814.304) < 0.001);
    assert_true(fabs(peak_of(&d, "bandwidth", "copy_4B_constant_gbps", "GB/s", 1 << 20) -
                     33454.08) < 0.01);
    /* not rates, or no limit known */
    assert_true(peak_of(&d, "pipeline", "ffma_ilp1_lambda_cycles", "cycles", 0) < 0);
    assert_true(peak_of(&d, "bandwidth", "h2d_gbps", "GB/s", 0) < 0);
    assert_true(peak_of(&d, "p2p", "read_gbps", "GB/s", 0) < 0);
}

static void test_architectures_and_clock(void **state)
{
    (void)state;
    gs_peak_device d = h200();
    d.cc_major = 8;
    d.cc_minor = 6;  /* GA102: 2 fp64 lanes; HFMA2 unpublished: the issue limit */
    assert_true(peak_of(&d, "roofline", "dfma_peak_ops_per_cycle_per_sm", "thread instr/cycle/SM",
                        0) == 2);
    assert_true(peak_of(&d, "roofline", "hfma2_peak_ops_per_cycle_per_sm", "thread instr/cycle/SM",
                        0) == 128);
    d.cc_major = 2;
    d.cc_minor = 1;
    gs_peak p;
    char why[200];
    assert_int_equal(gs_rate_peak(&d, "pipeline", "ffma_ilp1_gops", "Gop/s", 0, &p, why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "sm_21"));
    d = h200();
    d.clock_khz = 0;  /* a rate per second needs the clock; one per clock does not */
    assert_int_equal(gs_rate_peak(&d, "pipeline", "ffma_ilp1_gops", "Gop/s", 0, &p, why, sizeof why),
                     -1);
    assert_true(peak_of(&d, "roofline", "ffma_peak_ops_per_cycle_per_sm", "thread instr/cycle/SM",
                        0) == 128);
}

static void test_refused_with_reason(void **state)
{
    (void)state;
    gs_peak_device d = h200();
    gs_peak p;
    char why[200], reason[900];
    assert_int_equal(gs_rate_peak(&d, "mem-bandwidth", "l1_read_gbps", "GB/s", 0, &p, why,
                                  sizeof why), 0);
    /* 2.1 % above, interval 50: refused */
    assert_true(gs_rate_refused(34156, 50, "GB/s", &p, reason, sizeof reason));
    assert_non_null(strstr(reason, "2.1% above the peak of 33,454 GB/s = 128 B per clock per SM"));
    assert_non_null(strstr(reason, "x 132 SMs x 1,980 MHz"));
    /* above, but the interval reaches the peak: kept */
    assert_false(gs_rate_refused(33500, 100, "GB/s", &p, reason, sizeof reason));
    /* the timing's tolerance: 0.4 % above with no interval kept, 0.6 % refused */
    assert_false(gs_rate_refused(33454.08 * 1.004, 0, "GB/s", &p, reason, sizeof reason));
    assert_true(gs_rate_refused(33454.08 * 1.006, 0, "GB/s", &p, reason, sizeof reason));
    /* below: kept */
    assert_false(gs_rate_refused(31314, 69, "GB/s", &p, reason, sizeof reason));
    assert_false(gs_rate_refused(NAN, 0, "GB/s", &p, reason, sizeof reason));
}

static void test_number(void **state)
{
    (void)state;
    char b[32];
    gs_peak_number(33454.08, 0, b, sizeof b);
    assert_string_equal(b, "33,454");
    gs_peak_number(1980, 0, b, sizeof b);
    assert_string_equal(b, "1,980");
    gs_peak_number(128, 0, b, sizeof b);
    assert_string_equal(b, "128");
    gs_peak_number(1234567.5, 1, b, sizeof b);
    assert_string_equal(b, "1,234,567.5");
    gs_peak_number(0.25, 3, b, sizeof b);
    assert_string_equal(b, "0.250");
}

/* The check over a record: the figure above its peak becomes not determined, the one within it
 * gains its peak and fraction, figures that are not rates are left alone. */
static void test_check_record(void **state)
{
    (void)state;
    gs_peak_device d = h200();
    json_t *rec = json_pack(
        "{s:s, s:{}, s:{s:{s:f, s:s, s:f, s:i, s:s}, s:{s:f, s:s, s:f, s:i, s:s},"
        " s:{s:f, s:s, s:f, s:i, s:s}}}",
        "name", "pipeline", "params", "figures",
        "ffma_ilp4_gops", "value", 33056.0, "unit", "Gop/s", "ci95", 0.6, "n", 5, "method", "m",
        "hfma2_ilp2_gops", "value", 40000.0, "unit", "Gop/s", "ci95", 20.0, "n", 5, "method", "m",
        "ffma_ilp1_lambda_cycles", "value", 0.25, "unit", "cycles", "ci95", 0.0, "n", 5, "method",
        "m");
    assert_non_null(rec);
    assert_int_equal(gs_peak_check_record(rec, &d), 1);
    json_t *figs = json_object_get(rec, "figures");
    json_t *kept = json_object_get(figs, "ffma_ilp4_gops");
    assert_true(fabs(json_number_value(json_object_get(kept, "value")) - 33056) < 1e-9);
    json_t *pk = json_object_get(kept, "peak");
    assert_non_null(pk);
    assert_true(fabs(json_number_value(json_object_get(pk, "fraction")) - 33056 / 33454.08) < 1e-6);
    json_t *refused = json_object_get(figs, "hfma2_ilp2_gops");
    assert_true(json_is_null(json_object_get(refused, "value")));
    assert_non_null(strstr(json_string_value(json_object_get(refused, "reason")), "above the peak"));
    assert_null(json_object_get(json_object_get(figs, "ffma_ilp1_lambda_cycles"), "peak"));
    /* the record's own clock, when higher, is the one its peak uses */
    json_object_set_new(json_object_get(figs, "hfma2_ilp2_gops"), "value", json_real(34000));
    json_object_set_new(rec, "clock_khz_after", json_real(2100000));
    assert_int_equal(gs_peak_check_record(rec, &d), 0);
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peaks_per_unit),
        cmocka_unit_test(test_architectures_and_clock),
        cmocka_unit_test(test_refused_with_reason),
        cmocka_unit_test(test_number),
        cmocka_unit_test(test_check_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
