/* Unit tests of the published tensor-core peaks (src/analysis/tensor_peak.c) and of which MMA
 * instructions a compute capability has (gs_mma_applicable, src/plan.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "analysis/tensor_peak.h"
#include "plan.h"

static double peak(int major, int minor, gs_mma_type t, bool consumer, char *why, size_t len)
{
    double v;
    const char *src = NULL;
    int rc = gs_tensor_peak(major, minor, t < GS_MMA_TYPE_COUNT ? gs_mma_type_name(t) : "f8", consumer,
                            &v, &src, why, len);
    if (rc == 0)
        assert_non_null(src);
    else
        assert_true(isnan(v));
    return rc == 0 ? v : -1;
}

static void test_hopper_and_ampere(void **state)
{
    (void)state;
    char why[200];
    /* H100 SXM5: 989.4 TFLOPS fp16 dense = 4096 x 132 SMs x 1.83 GHz */
    assert_true(fabs(peak(9, 0, GS_MMA_F16, false, why, sizeof why) * 132 * 1.83e9 - 989.4e12) <
                0.2e12);
    assert_true(peak(9, 0, GS_MMA_E4M3, false, why, sizeof why) == 8192);
    assert_true(peak(9, 0, GS_MMA_E5M2, false, why, sizeof why) == 8192);
    assert_true(peak(9, 0, GS_MMA_TF32, false, why, sizeof why) == 2048);
    assert_true(peak(9, 0, GS_MMA_F64, false, why, sizeof why) == 256);
    /* A100: 312 TFLOPS fp16 = 2048 x 108 x 1.41 GHz; DMMA 19.5 TFLOPS = 128 per SM */
    assert_true(fabs(peak(8, 0, GS_MMA_F16, false, why, sizeof why) * 108 * 1.41e9 - 312e12) <
                0.5e12);
    assert_true(peak(8, 0, GS_MMA_F64, false, why, sizeof why) == 128);
    assert_true(peak(8, 0, GS_MMA_S8, false, why, sizeof why) == 4096);
}

static void test_consumer_half_rate_f32_accumulate(void **state)
{
    (void)state;
    char why[200];
    assert_true(peak(8, 9, GS_MMA_F16, true, why, sizeof why) == 512);
    assert_true(peak(8, 9, GS_MMA_F16, false, why, sizeof why) == 1024);
    assert_true(peak(8, 9, GS_MMA_S8, true, why, sizeof why) == 2048);  /* integer: full rate */
    assert_true(gs_tensor_consumer_name("NVIDIA GeForce RTX 4090"));
    assert_false(gs_tensor_consumer_name("NVIDIA RTX 6000 Ada Generation"));
    assert_false(gs_tensor_consumer_name(NULL));
}

static void test_unknown_and_absent(void **state)
{
    (void)state;
    char why[200];
    assert_true(peak(8, 6, GS_MMA_F64, false, why, sizeof why) == -1);
    assert_non_null(strstr(why, "no published peak for f64 MMA on sm_86"));
    assert_true(peak(8, 7, GS_MMA_F16, false, why, sizeof why) == -1);
    assert_non_null(strstr(why, "no published peak for sm_87"));
    assert_true(peak(8, 0, GS_MMA_E4M3, false, why, sizeof why) == -1);
    assert_non_null(strstr(why, "sm_80 has no e4m3"));
    assert_true(peak(8, 0, GS_MMA_E5M2, false, why, sizeof why) == -1);
    assert_non_null(strstr(why, "sm_80 has no e5m2"));
    assert_true(peak(9, 0, GS_MMA_TYPE_COUNT, false, why, sizeof why) == -1);
}

static void test_fraction(void **state)
{
    (void)state;
    assert_true(fabs(gs_tensor_fraction_of_peak(2048, 4096) - 0.5) < 1e-12);
    assert_true(isnan(gs_tensor_fraction_of_peak(NAN, 4096)));
    assert_true(isnan(gs_tensor_fraction_of_peak(100, 0)));
    assert_true(isnan(gs_tensor_fraction_of_peak(0, 100)));
}

/* A rate above its peak by more than its interval is refused; one whose interval reaches the
 * peak is not (1.03 of the dense peak with a 1 % interval: refused). */
static void test_above_peak(void **state)
{
    (void)state;
    assert_true(gs_rate_above_peak(8438, 80, 8192));
    assert_false(gs_rate_above_peak(8250, 80, 8192));
    assert_false(gs_rate_above_peak(8192, 0, 8192));
    assert_true(gs_rate_above_peak(8193, 0, 8192));
    assert_true(gs_rate_above_peak(8193, NAN, 8192));
    assert_false(gs_rate_above_peak(7900, 10, 8192));
    assert_false(gs_rate_above_peak(NAN, 10, 8192));
    assert_false(gs_rate_above_peak(9000, 10, 0));
}

static void test_applicable(void **state)
{
    (void)state;
    char why[120];
    unsigned m, n, k;
    assert_true(gs_mma_applicable(GS_MMA_SYNC, GS_MMA_F16, 8, 0, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_SYNC, GS_MMA_E4M3, 8, 6, why, sizeof why));
    assert_string_equal(why, "sm_86 has no fp8 mma (mma.sync e4m3 needs sm_89)");
    assert_true(gs_mma_applicable(GS_MMA_SYNC, GS_MMA_E4M3, 8, 9, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_SYNC, GS_MMA_F16, 7, 5, why, sizeof why));
    assert_non_null(strstr(why, "sm_75 has no mma.sync m16n8k16 f16"));
    assert_true(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_F16, 9, 0, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_F16, 8, 9, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_F16, 10, 0, NULL, 0));
    assert_true(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_S8, 9, 0, why, sizeof why));
    assert_true(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_E5M2, 9, 0, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_WGMMA, GS_MMA_F64, 9, 0, why, sizeof why));
    assert_string_equal(why, "sm_90 has no such instruction");
    assert_false(gs_mma_applicable(GS_MMA_SYNC, GS_MMA_E5M2, 9, 0, why, sizeof why));
    assert_true(gs_mma_shape(GS_MMA_SYNC, GS_MMA_F64, &m, &n, &k));
    assert_true(m == 8 && n == 8 && k == 4);
    assert_false(gs_mma_shape(GS_MMA_SYNC, GS_MMA_E5M2, &m, &n, &k));
    assert_false(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_F64, &m, &n, &k));
    assert_false(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_TYPE_COUNT, &m, &n, &k));
    /* PTX ISA: wgmma K is 32 bytes of input, k16 f16 and bf16, k8 tf32, k32 fp8 and s8 */
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_F16, &m, &n, &k));
    assert_true(m == 64 && n == 128 && k == 16);
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_BF16, &m, &n, &k) && k == 16);
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_TF32, &m, &n, &k) && k == 8);
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_E4M3, &m, &n, &k) && k == 32);
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_E5M2, &m, &n, &k) && k == 32 && n == 128);
    assert_true(gs_mma_shape(GS_MMA_WGMMA, GS_MMA_S8, &m, &n, &k) && k == 32 && m == 64);
    assert_string_equal(gs_mma_type_name(GS_MMA_E5M2), "e5m2");
    assert_string_equal(gs_mma_type_name(GS_MMA_E4M3), "e4m3");
    assert_string_equal(gs_mma_instr_name(GS_MMA_WGMMA), "wgmma");
}

/* mma.sp: twice the dense k at every type it has, from sm_80 (e4m3 sm_89); its peak twice the
 * dense one (H100 SXM5: 1979 TFLOPS sparse fp16), none for f64 or before sm_80. */
static void test_sparse(void **state)
{
    (void)state;
    char why[200];
    unsigned m, n, k;
    double v;
    const char *src = NULL;
    assert_true(gs_mma_shape(GS_MMA_SP, GS_MMA_F16, &m, &n, &k) && m == 16 && n == 8 && k == 32);
    assert_true(gs_mma_shape(GS_MMA_SP, GS_MMA_BF16, &m, &n, &k) && k == 32);
    assert_true(gs_mma_shape(GS_MMA_SP, GS_MMA_TF32, &m, &n, &k) && k == 16);
    assert_true(gs_mma_shape(GS_MMA_SP, GS_MMA_E4M3, &m, &n, &k) && k == 64);
    assert_true(gs_mma_shape(GS_MMA_SP, GS_MMA_S8, &m, &n, &k) && k == 64);
    assert_false(gs_mma_shape(GS_MMA_SP, GS_MMA_F64, &m, &n, &k));
    assert_false(gs_mma_shape(GS_MMA_SP, GS_MMA_E5M2, &m, &n, &k));
    assert_string_equal(gs_mma_instr_name(GS_MMA_SP), "mma_sp");
    assert_true(gs_mma_applicable(GS_MMA_SP, GS_MMA_F16, 8, 0, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_SP, GS_MMA_E4M3, 8, 0, why, sizeof why));
    assert_string_equal(why, "sm_80 has no fp8 mma (mma.sp e4m3 needs sm_89)");
    assert_true(gs_mma_applicable(GS_MMA_SP, GS_MMA_E4M3, 9, 0, why, sizeof why));
    assert_false(gs_mma_applicable(GS_MMA_SP, GS_MMA_S8, 7, 5, why, sizeof why));
    assert_non_null(strstr(why, "sm_75 has no mma.sp m16n8k64 s8"));
    assert_int_equal(gs_tensor_sparse_peak(9, 0, "f16", false, &v, &src, why, sizeof why), 0);
    assert_true(v == 8192 && src != NULL);
    assert_true(fabs(v * 132 * 1.83e9 - 1978.9e12) < 0.5e12);
    assert_int_equal(gs_tensor_sparse_peak(8, 0, "tf32", false, &v, &src, why, sizeof why), 0);
    assert_true(v == 2048);
    assert_int_equal(gs_tensor_sparse_peak(8, 9, "f16", true, &v, &src, why, sizeof why), 0);
    assert_true(v == 1024);
    assert_int_equal(gs_tensor_sparse_peak(9, 0, "f64", false, &v, &src, why, sizeof why), -1);
    assert_true(isnan(v));
    assert_int_equal(gs_tensor_sparse_peak(7, 5, "f16", false, &v, &src, why, sizeof why), -1);
    assert_non_null(strstr(why, "sm_75 has no sparse tensor-core MMA"));
    assert_int_equal(gs_tensor_sparse_peak(8, 7, "f16", false, &v, &src, why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hopper_and_ampere),
        cmocka_unit_test(test_consumer_half_rate_f32_accumulate),
        cmocka_unit_test(test_unknown_and_absent),
        cmocka_unit_test(test_fraction),
        cmocka_unit_test(test_above_peak),
        cmocka_unit_test(test_applicable),
        cmocka_unit_test(test_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
