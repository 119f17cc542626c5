/* Unit tests of src/sim/stream.c: the "bandwidth" section of a model file (strict parsing, one
 * error naming the key) and the stream operation's times against the model's truth. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include "sim_test.h"

#include "sim/model.h"
#include "sim/sim.h"

#define DEVICE "\"device\": {\"name\": \"t\", \"cc_major\": 9, \"cc_minor\": 0, \"sm_count\": 4, " \
               "\"clock_khz\": 1000000, \"l2_bytes\": 1024, \"smem_per_sm_bytes\": 1024, "        \
               "\"smem_per_block_bytes\": 1024, \"global_mem_bytes\": 1048576, "                  \
               "\"max_threads_per_sm\": 2048, \"max_threads_per_block\": 1024, "                  \
               "\"max_blocks_per_sm\": 32}"
#define EFF "{\"1\": 0.25, \"2\": 0.5, \"4\": 0.8, \"8\": 0.9, \"16\": 1}"
#define BW(extra) "\"bandwidth\": {\"dram_gbps\": 1000, \"copy_efficiency\": " EFF ", "        \
                  "\"memcpy_d2d_gbps\": 800, \"h2d_gbps\": 20, \"d2h_gbps\": 25" extra "}"

static int load_text(const char *text, gs_sim_model **m, gs_error *err)
{
    return sim_test_load(text, 1, m, err);
}

static gs_sim_model *load_bw(const char *section)
{
    char text[2048];
    gs_sim_model *m = NULL;
    gs_error err;
    snprintf(text, sizeof text, "{\"name\": \"s\", " DEVICE ", %s}", section);
    int rc = load_text(text, &m, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(rc, 0);
    return m;
}

/* Seconds of one repetition of plan on m (all repetitions equal without jitter). */
static double seconds_of(gs_sim_model *m, gs_stream_plan plan, uint64_t *moved)
{
    double s[4];
    gs_stream_result r = { .seconds = s };
    gs_error err;
    plan.repeats = 4;
    assert_int_equal(sim_stream(m, &plan, &r, &err), 0);
    assert_int_equal(r.n, 4);
    assert_double_equal(s[0], s[3], 1e-15);
    *moved = r.bytes_moved;
    return s[0];
}

static void test_rates_are_the_models(void **state)
{
    (void)state;
    gs_sim_model *m = load_bw(BW(", \"dynamic_bound_factor\": 0.5, \"launch_overhead_us\": 2"));
    uint64_t moved;
    gs_stream_plan p = { .kind = GS_STREAM_COPY, .element_bytes = 16, .bytes = 1000000000 };
    double t = seconds_of(m, p, &moved);
    assert_int_equal(moved, 2000000000);
    assert_double_equal(t, 2e-6 + 2e9 / 1000e9, 1e-12);
    p.element_bytes = 4;
    p.dynamic_bound = true;
    assert_double_equal(seconds_of(m, p, &moved), 2e-6 + 2e9 / (1000e9 * 0.8 * 0.5), 1e-12);
    p.kind = GS_STREAM_READ;       /* no read_efficiency: the copy's; bytes read once */
    p.dynamic_bound = false;
    assert_double_equal(seconds_of(m, p, &moved), 2e-6 + 1e9 / (1000e9 * 0.8), 1e-12);
    assert_int_equal(moved, 1000000000);
    p.kind = GS_STREAM_MEMCPY_D2D;
    assert_double_equal(seconds_of(m, p, &moved), 2e-6 + 2e9 / 800e9, 1e-12);
    p.kind = GS_STREAM_MEMCPY_H2D;
    assert_double_equal(seconds_of(m, p, &moved), 2e-6 + 1e9 / 20e9, 1e-12);
    p.kind = GS_STREAM_MEMCPY_D2H;
    assert_double_equal(seconds_of(m, p, &moved), 2e-6 + 1e9 / 25e9, 1e-12);
    gs_sim_model_free(m);
}

static void test_read_efficiency_and_small_grids(void **state)
{
    (void)state;
    gs_sim_model *m = load_bw(BW(", \"read_efficiency\": {\"1\": 0.5, \"2\": 0.5, \"4\": 0.5, "
                                 "\"8\": 0.5, \"16\": 0.5}, \"saturating_blocks_per_sm\": 2"));
    uint64_t moved;
    gs_stream_plan p = { .kind = GS_STREAM_READ, .element_bytes = 8, .bytes = 1000000 };
    assert_double_equal(seconds_of(m, p, &moved), 1e6 / 500e9, 1e-15);
    p.kind = GS_STREAM_COPY;
    p.blocks = 4;                  /* half of 4 SMs x 2 blocks: half the rate */
    assert_double_equal(seconds_of(m, p, &moved), 2e6 / (900e9 * 0.5), 1e-15);
    p.blocks = 0;                  /* fill the device */
    assert_double_equal(seconds_of(m, p, &moved), 2e6 / 900e9, 1e-15);
    gs_sim_model_free(m);
}

static void test_jitter_is_bounded(void **state)
{
    (void)state;
    gs_sim_model *m = load_bw(BW(", \"jitter_fraction\": 0.1"));
    double s[64];
    gs_stream_result r = { .seconds = s };
    gs_stream_plan p = { .kind = GS_STREAM_COPY, .element_bytes = 16, .bytes = 1000000000,
                         .repeats = 64 };
    gs_error err;
    assert_int_equal(sim_stream(m, &p, &r, &err), 0);
    double base = 2e9 / 1000e9, lo = INFINITY, hi = 0;
    for (int i = 0; i < 64; i++) {
        lo = fmin(lo, s[i]);
        hi = fmax(hi, s[i]);
    }
    assert_true(lo >= base && hi < base * 1.1 && hi > lo);
    gs_sim_model_free(m);
}

/* Every third call runs its repetitions at half the rate, the others at the rate. */
static void test_slow_windows(void **state)
{
    (void)state;
    gs_sim_model *m = load_bw(BW(", \"slow_window_every_calls\": 3, "
                                 "\"slow_window_factor\": 0.5"));
    gs_stream_plan p = { .kind = GS_STREAM_COPY, .element_bytes = 16, .bytes = 1000000000 };
    uint64_t moved;
    double base = 2e9 / 1000e9;
    for (int call = 1; call <= 6; call++)
        assert_double_equal(seconds_of(m, p, &moved), call % 3 ? base : 2 * base, 1e-15);
    gs_sim_model_free(m);
}

static void expect_bad(const char *section, const char *needle)
{
    char text[2048];
    gs_sim_model *m = NULL;
    gs_error err;
    snprintf(text, sizeof text, "{\"name\": \"s\", " DEVICE ", %s}", section);
    assert_int_equal(load_text(text, &m, &err), GS_ERR_INPUT);
    if (!strstr(err.msg, needle))
        fprintf(stderr, "message: %s\n", err.msg);
    assert_non_null(strstr(err.msg, needle));
}

static void test_bad_sections(void **state)
{
    (void)state;
    expect_bad(BW(", \"speed\": 1"), "speed");
    expect_bad("\"bandwidth\": {\"dram_gbps\": 1000, \"memcpy_d2d_gbps\": 1, \"h2d_gbps\": 1, "
               "\"d2h_gbps\": 1}", "copy_efficiency");
    expect_bad("\"bandwidth\": {\"dram_gbps\": 1000, \"copy_efficiency\": {\"1\": 1.5, \"2\": 1, "
               "\"4\": 1, \"8\": 1, \"16\": 1}, \"memcpy_d2d_gbps\": 1, \"h2d_gbps\": 1, "
               "\"d2h_gbps\": 1}", "copy_efficiency.1");
    expect_bad("\"bandwidth\": {\"dram_gbps\": 0, \"copy_efficiency\": " EFF ", "
               "\"memcpy_d2d_gbps\": 1, \"h2d_gbps\": 1, \"d2h_gbps\": 1}", "dram_gbps");
    expect_bad(BW(", \"dynamic_bound_factor\": 2"), "dynamic_bound_factor");
    expect_bad("\"bandwidth\": [1]", "bandwidth");
    expect_bad(BW(", \"slow_window_every_calls\": 2.5, \"slow_window_factor\": 0.5"),
               "slow_window_every_calls");
    expect_bad(BW(", \"slow_window_every_calls\": 4"), "slow_window_factor");
    expect_bad(BW(", \"slow_window_every_calls\": 4, \"slow_window_factor\": 1.5"),
               "slow_window");
}

static void test_unsupported_plans(void **state)
{
    (void)state;
    gs_sim_model *m = load_bw(BW(""));
    double s[2];
    gs_stream_result r = { .seconds = s };
    gs_stream_plan p = { .kind = GS_STREAM_COPY, .element_bytes = 3, .bytes = 1024, .repeats = 2 };
    gs_error err;
    assert_int_equal(sim_stream(m, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "3 bytes"));
    gs_sim_model_free(m);
    m = load_bw("\"noise\": {\"jitter_cycles\": 0}");
    p.element_bytes = 4;
    assert_int_equal(sim_stream(m, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "\"bandwidth\""));
    gs_sim_model_free(m);
}

static void test_builtin_models_have_bandwidth(void **state)
{
    (void)state;
    static const char *const names[] = { "hopper", "kepler", "fermi" };
    for (int i = 0; i < 3; i++) {
        gs_sim_model *m = NULL;
        gs_error err;
        assert_int_equal(gs_sim_model_load(names[i], 1, &m, &err), 0);
        uint64_t moved;
        gs_stream_plan p = { .kind = GS_STREAM_MEMCPY_D2D, .element_bytes = 1, .bytes = 1 << 20 };
        double s[2];
        gs_stream_result r = { .seconds = s };
        p.repeats = 2;
        assert_int_equal(sim_stream(m, &p, &r, &err), 0);
        assert_true(s[0] > 0);
        (void)moved;
        gs_sim_model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rates_are_the_models),
        cmocka_unit_test(test_read_efficiency_and_small_grids),
        cmocka_unit_test(test_jitter_is_bounded),
        cmocka_unit_test(test_slow_windows),
        cmocka_unit_test(test_bad_sections),
        cmocka_unit_test(test_unsupported_plans),
        cmocka_unit_test(test_builtin_models_have_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
