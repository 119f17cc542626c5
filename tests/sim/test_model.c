/* Unit tests of src/sim/model.c: the top level, "device" and "noise" sections, and that every
 * malformed file gives one error naming the key. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include "sim_test.h"

#include "sim/model.h"

#define DEVICE "\"device\": {\"name\": \"t\", \"cc_major\": 9, \"cc_minor\": 0, \"sm_count\": 4, " \
               "\"clock_khz\": 1000000, \"l2_bytes\": 1024, \"smem_per_sm_bytes\": 1024, "        \
               "\"smem_per_block_bytes\": 1024, \"global_mem_bytes\": 1048576, "                  \
               "\"max_threads_per_sm\": 2048, \"max_threads_per_block\": 1024, "                  \
               "\"max_blocks_per_sm\": 32}"

/* Write text to a temporary .json file and load it; returns the status, message in err. */
static int load_text(const char *text, gs_sim_model **m, gs_error *err)
{
    return sim_test_load(text, 1, m, err);
}

static void test_minimal_model_loads(void **state)
{
    (void)state;
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_text("{\"name\": \"x\", " DEVICE ", \"noise\": {\"jitter_cycles\": 3}}",
                               &m, &err), 0);
    assert_string_equal(m->name, "x");
    assert_int_equal(m->info.sm_count, 4);
    assert_true(m->info.simulated);
    for (int i = 0; i < 1000; i++) {
        double n = gs_sim_noise(m);
        assert_true(n >= 0 && n <= 3);
    }
    gs_sim_model_free(m);
}

static void expect_error(const char *text, const char *needle)
{
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_text(text, &m, &err), GS_ERR_INPUT);
    assert_null(m);
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' does not name '%s'", err.msg, needle);
}

static void test_errors_name_the_key(void **state)
{
    (void)state;
    expect_error("{\"name\": \"x\", " DEVICE ", \"colour\": 1}", "model.colour: unknown key");
    expect_error("{\"name\": \"x\"}", "model.device: missing");
    expect_error("{" DEVICE "}", "model.name: missing");
    expect_error("{\"name\": \"x\", \"device\": {\"name\": \"t\"}}", "device.cc_major: missing");
    expect_error("{\"name\": \"x\", " DEVICE ", \"noise\": {\"jitter\": 2}}", "noise.jitter: unknown key");
    expect_error("{\"name\": \"x\", " DEVICE ", \"noise\": {\"outlier_rate\": 2}}", "outlier_rate");
    expect_error("{\"name\": 3, " DEVICE "}", "model.name: must be a string");
    expect_error("{\"name\": \"x\", " DEVICE ",}", "model file");
    expect_error("{\"name\": \"x\", \"name\": \"y\", " DEVICE "}", "duplicate");
}

static void test_missing_files(void **state)
{
    (void)state;
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(gs_sim_model_load("/nonexistent/model.json", 1, &m, &err), GS_ERR_INPUT);
    assert_non_null(strstr(err.msg, "cannot read model file"));
    setenv("GS_MODELS_DIR", "/tmp", 1);
    assert_int_equal(gs_sim_model_load("no-such-model-name", 1, &m, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "gpusonar models"));
    unsetenv("GS_MODELS_DIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_model_loads),
        cmocka_unit_test(test_errors_name_the_key),
        cmocka_unit_test(test_missing_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
