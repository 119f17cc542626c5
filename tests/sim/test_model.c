/* Unit tests of src/sim/model.c: the top level, "device" and "noise" sections, and that every
 * malformed file gives one error naming the key. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include "sim_test.h"

#include "sim/model.h"
#include "util/utf8.h"

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

/* The device, noise, banks, pipeline and bandwidth sections are bounded too (model.c's table). */
static void test_values_out_of_range(void **state)
{
    (void)state;
    static const char *const device[][2] = {
        {"cc_major", "9"}, {"cc_minor", "0"}, {"sm_count", "4"}, {"clock_khz", "1000000"},
        {"l2_bytes", "1024"}, {"smem_per_sm_bytes", "1024"}, {"smem_per_block_bytes", "1024"},
        {"global_mem_bytes", "1048576"}, {"max_threads_per_sm", "2048"},
        {"max_threads_per_block", "1024"}, {"max_blocks_per_sm", "32"}, {"warp_size", "32"},
    };
    static const char *const cases[][3] = {
        {"clock_khz", "1e-300", "device.clock_khz: 1e-300 is out of range 1000..100000000"},
        {"clock_khz", "1e308", "device.clock_khz: 1e+308 is out of range"},
        {"sm_count", "100000", "device.sm_count: 100000 is out of range 1..1024"},
        {"global_mem_bytes", "1e18", "device.global_mem_bytes: 1e+18 is out of range"},
        {"warp_size", "0", "device.warp_size: 0 is out of range 1..64"},
        {"l2_bytes", "4294967296", "device.l2_bytes: 4294967296 is out of range 0..268435456"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        int used = snprintf(text, sizeof text, "{\"name\": \"x\", \"device\": {\"name\": \"t\"");
        for (size_t k = 0; k < sizeof device / sizeof device[0]; k++)
            used += snprintf(text + used, sizeof text - (size_t)used, ", \"%s\": %s", device[k][0],
                             strcmp(device[k][0], cases[i][0]) ? device[k][1] : cases[i][1]);
        snprintf(text + used, sizeof text - (size_t)used, "}}");
        expect_error(text, cases[i][2]);
    }
    expect_error("{\"name\": \"x\", " DEVICE ", \"noise\": {\"jitter_cycles\": 1e9}}",
                 "noise.jitter_cycles: 1000000000 is out of range 0..100000");
    expect_error("{\"name\": \"x\", " DEVICE ", \"shared_memory\": {\"banks\": 32, "
                 "\"bank_width_bytes\": 4, \"latency_cycles\": 30, \"conflict_cycles_per_way\": "
                 "1e30}}", "shared_memory.conflict_cycles_per_way: 1e+30 is out of range");
    expect_error("{\"name\": \"x\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, "
                 "\"instructions\": {\"fadd\": {\"units_per_sm\": 1e9, "
                 "\"completion_cycles\": 4}}}}", "units_per_sm: 1000000000 is out of range 0..4096");
}

/* A model path that is not UTF-8 still gives a valid name: the bad byte is written as \xFF. */
static void test_non_utf8_path(void **state)
{
    (void)state;
    char path[] = "/tmp/gs_model_\xff_XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    const char *text = "{\"name\": \"x\", " DEVICE "}";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    gs_sim_model *m = NULL;
    gs_error err;
    int rc = gs_sim_model_load(path, 1, &m, &err);
    unlink(path);
    if (rc)
        fail_msg("%s", err.msg);
    assert_non_null(strstr(m->info.model, "/tmp/gs_model_\\xFF_"));
    assert_true(gs_utf8_valid(m->info.model));
    assert_true(gs_utf8_valid(m->source));
    assert_true(m->info.simulated);
    gs_sim_model_free(m);
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
        cmocka_unit_test(test_values_out_of_range),
        cmocka_unit_test(test_non_utf8_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
