/* Unit tests of src/result/result.c and the printers: figures (including "not determined"),
 * series, atomic JSON writing, CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include <math.h>

#include "report/report.h"
#include "result/result.h"

static gs_run *sample_run(void)
{
    char *argv[] = {"gpusonar", "run", "clock"};
    gs_run *run = gs_run_new(3, argv);
    assert_non_null(run);
    gs_device_info d = {0};
    snprintf(d.name, sizeof d.name, "test GPU");
    snprintf(d.backend, sizeof d.backend, "sim");
    d.simulated = true;
    d.cc_major = 9;
    d.sm_count = 2;
    gs_run_set_device(run, &d);
    gs_probe_out *p = gs_run_add_probe(run, "cache");
    gs_param_string(p, "level", "l1");
    gs_figure(p, "size_bytes", 16384, "B", 0, 1, "test");
    gs_figure(p, "hit_latency_cycles", 33.5, "cycles", 0.25, 100, "test");
    gs_figure(p, "nan_is_null", NAN, "cycles", NAN, 0, "test");
    gs_figure_text(p, "policy", "lru", 10, "test");
    double ways[] = {17, 8, 8};
    gs_figure_list(p, "ways_per_set", ways, 3, "", 1, "test");
    gs_figure_nd(p, "sets", "", "test", "trace buffer holds %d entries", 4096);
    double x[] = {1, 2}, y[] = {10, 20};
    gs_series(p, "sweep", "size", "B", "latency", "cycles", x, y, 2);
    gs_probe_status(p, "ok", NULL);
    return run;
}

static void test_figures(void **state)
{
    (void)state;
    gs_run *run = sample_run();
    gs_probe_out *p = json_array_get(run->probes, 0);
    double v = 0;
    assert_int_equal(gs_figure_get(p, "size_bytes", &v), 0);
    assert_double_equal(v, 16384, 0);
    assert_int_equal(gs_figure_get(p, "sets", &v), -1);
    assert_int_equal(gs_figure_get(p, "nan_is_null", &v), -1);
    json_t *sets = json_object_get(json_object_get(p, "figures"), "sets");
    assert_true(json_is_null(json_object_get(sets, "value")));
    assert_string_equal(json_string_value(json_object_get(sets, "reason")),
                        "trace buffer holds 4096 entries");
    char buf[256];
    gs_report_format_figure(sets, buf, sizeof buf);
    assert_string_equal(buf, "not determined: trace buffer holds 4096 entries");
    gs_report_format_figure(json_object_get(json_object_get(p, "figures"), "size_bytes"), buf,
                            sizeof buf);
    assert_string_equal(buf, "16 KiB");
    gs_report_format_figure(json_object_get(json_object_get(p, "figures"), "ways_per_set"), buf,
                            sizeof buf);
    assert_string_equal(buf, "[17, 8, 8]");
    assert_false(json_is_true(json_object_get(run->doc, "complete")));
    gs_run_finish(run, true, NULL);
    assert_true(json_is_true(json_object_get(run->doc, "complete")));
    gs_run_free(run);
}

static void test_write_json_atomic(void **state)
{
    (void)state;
    gs_run *run = sample_run();
    char dir[] = "/tmp/gs_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.json", dir);
    gs_error err;
    assert_int_equal(gs_run_write_json(run, path, &err), 0);
    json_t *doc = NULL;
    assert_int_equal(gs_report_load(path, &doc, &err), 0);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "gpusonar/1");
    json_decref(doc);
    /* Only the final file is left: no temporary. */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);
    /* An unwritable place fails cleanly with the path in the message. */
    assert_int_equal(gs_run_write_json(run, "/nonexistent-dir/x.json", &err), GS_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.json"));
    /* CSV of the series. */
    snprintf(path, sizeof path, "%s/csv", dir);
    assert_int_equal(gs_report_csv(run->doc, path, &err), 0);
    snprintf(path, sizeof path, "%s/csv/cache-l1-sweep.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[64];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "\"size (B)\",\"latency (cycles)\"\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "1,10\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    gs_run_free(run);
}

/* Series whose file names would collide (names that differ only in characters made '_', a probe
 * run twice) get files of their own; a very long name is cut to fit. */
static void test_csv_names_distinct(void **state)
{
    (void)state;
    gs_run *run = sample_run();
    gs_probe_out *p = json_array_get(run->probes, 0);
    double x[] = {1}, y[] = {2};
    gs_series(p, "a b", "x", "", "y", "", x, y, 1);
    gs_series(p, "a/b", "x", "", "y", "", x, y, 1);
    char long_name[400];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    gs_series(p, long_name, "x", "", "y", "", x, y, 1);
    gs_probe_out *again = gs_run_add_probe(run, "cache");          /* the same probe twice */
    gs_param_string(again, "level", "l1");
    gs_series(again, "sweep", "size", "B", "latency", "cycles", x, y, 1);
    char dir[] = "/tmp/gs_test_XXXXXX", path[300], cmd[400];
    assert_non_null(mkdtemp(dir));
    gs_error err;
    assert_int_equal(gs_report_csv(run->doc, dir, &err), 0);
    const char *names[] = {"cache-l1-a_b.csv", "cache-l1-a_b-2.csv", "cache-l1-sweep.csv",
                           "cache-l1-sweep-2.csv"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (access(path, F_OK) != 0)
            fail_msg("no %s", names[i]);
    }
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 5", dir);   /* the long one, cut */
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    gs_run_free(run);
}

static void test_load_rejects_other_documents(void **state)
{
    (void)state;
    char path[] = "/tmp/gs_test_doc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"a\": 1}", 8), 8);
    close(fd);
    json_t *doc = NULL;
    gs_error err;
    assert_int_equal(gs_report_load(path, &doc, &err), GS_ERR_INPUT);
    assert_non_null(strstr(err.msg, "gpusonar/1"));
    unlink(path);
    assert_int_equal(gs_report_load("/nonexistent.json", &doc, &err), GS_ERR_INPUT);
}

/* A device name, model path or argument that is not UTF-8 still gives a device record that says
 * simulated, with the bad bytes written as \xNN. */
static void test_non_utf8_text_kept(void **state)
{
    (void)state;
    char *argv[] = {"gpusonar", "--device", "sim:/tmp/m\xff.json"};
    gs_run *run = gs_run_new(3, argv);
    assert_non_null(run);
    gs_device_info d = {0};
    snprintf(d.name, sizeof d.name, "bad \xfe name");
    snprintf(d.backend, sizeof d.backend, "sim");
    snprintf(d.model, sizeof d.model, "/tmp/m\xff.json");
    d.simulated = true;
    d.sm_count = 1;
    gs_run_set_device(run, &d);
    json_t *dev = json_object_get(run->doc, "device");
    assert_true(json_is_object(dev));
    assert_true(json_is_true(json_object_get(dev, "simulated")));
    assert_string_equal(json_string_value(json_object_get(dev, "model")), "/tmp/m\\xFF.json");
    assert_string_equal(json_string_value(json_object_get(dev, "name")), "bad \\xFE name");
    json_t *cmd = json_object_get(run->doc, "command_line");
    assert_int_equal(json_array_size(cmd), 3);
    assert_string_equal(json_string_value(json_array_get(cmd, 2)), "sim:/tmp/m\\xFF.json");
    gs_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_write_json_atomic),
        cmocka_unit_test(test_csv_names_distinct),
        cmocka_unit_test(test_load_rejects_other_documents),
        cmocka_unit_test(test_non_utf8_text_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
