/* Tests of src/report/compare.c and src/result/validate.c: figures that became null or went
 * missing, and whole records in one document only, are listed as changes; names are printed in
 * full; the tolerance moves the line, in percentage points for figures in %; lists compare
 * element by element within their intervals; a median of clock reads moves by its 1-cycle
 * resolution without changing; only the
 * changes are printed, with units, unless every figure is asked for; thousands of records of
 * one name compare in linear time; two runs' SM clocks that differ are named under the table;
 * and a document that breaks the gpusonar/1 structure is refused naming the JSON path of the
 * first problem. */
#define _GNU_SOURCE
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"

#include "report/report.h"
#include "result/result.h"

#define LONG_A "an_extremely_long_figure_name_that_goes_past_34_characters_a"
#define LONG_B "an_extremely_long_figure_name_that_goes_past_34_characters_b"

/* A run on a one-SM simulated test device. */
static gs_run *test_run(void)
{
    char *argv[] = {"gpusonar"};
    gs_run *run = gs_run_new(1, argv);
    gs_device_info d = {0};
    snprintf(d.name, sizeof d.name, "test GPU");
    snprintf(d.backend, sizeof d.backend, "sim");
    d.sm_count = 1;
    gs_run_set_device(run, &d);
    return run;
}

/* The finished run's document (the run freed). */
static json_t *finish(gs_run *run)
{
    gs_run_finish(run, true, NULL);
    json_t *doc = json_incref(run->doc);
    gs_run_free(run);
    return doc;
}

static json_t *document(double size, bool with_sets, bool with_tlb, const char *policy)
{
    gs_run *run = test_run();
    gs_probe_out *p = gs_run_add_probe(run, "cache");
    gs_param_string(p, "level", "l1");
    gs_figure(p, "size_bytes", size, "B", 0, 1, "test");
    gs_figure(p, "hit_latency_cycles", 30, "cycles", 0.5, 10, "test");
    if (with_sets)
        gs_figure(p, "sets", 32, "", 0, 1, "test");
    else
        gs_figure_nd(p, "sets", "", "test", "trace too short");
    gs_figure_text(p, "policy", policy, 1, "test");
    gs_figure(p, LONG_A, 1, "", 0, 1, "test");
    gs_figure(p, LONG_B, 2, "", 0, 1, "test");
    gs_probe_status(p, "ok", NULL);
    if (with_tlb) {
        p = gs_run_add_probe(run, "tlb");
        gs_figure(p, "entries", 16, "", 0, 1, "test");
        gs_probe_status(p, "ok", NULL);
    }
    return finish(run);
}

/* Run the comparison into a string: every figure when all, else the changes. */
static char *compare_text_with(const json_t *a, const json_t *b, double tolerance, bool all,
                               gs_compare_counts *counts)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gs_error err;
    gs_compare_opts opts = {tolerance, all};
    assert_int_equal(gs_report_compare_with(f, a, b, &opts, counts, &err), 0);
    fclose(f);
    return text;
}

static char *compare_text(const json_t *a, const json_t *b, double tolerance,
                          gs_compare_counts *counts)
{
    return compare_text_with(a, b, tolerance, false, counts);
}

/* A document with only a clock record: the SM clock at khz +- 1 kHz. */
static json_t *clock_document(double khz)
{
    gs_run *run = test_run();
    gs_probe_out *p = gs_run_add_probe(run, "clock");
    gs_figure(p, "sm_clock_khz", khz, "kHz", 1, 8, "test");
    gs_probe_status(p, "ok", NULL);
    return finish(run);
}

/* Clocks apart by 0.76 % (under the 1 % tolerance that would mark the figure) get a line naming
 * both; equal ones, or ones within 0.1 %, none. */
static void clock_state_is_named(void **state)
{
    (void)state;
    json_t *a = clock_document(1980000), *b = clock_document(1995000);
    json_t *c = clock_document(1981000);
    gs_compare_counts counts;
    char *text = compare_text(a, b, 1, &counts);
    assert_int_equal(counts.differing, 0);
    assert_non_null(strstr(text, "the SM clock differs: A 1980 MHz, B 1995 MHz (+0.76%)"));
    free(text);
    text = compare_text(a, c, 1, &counts);
    assert_null(strstr(text, "SM clock differs"));
    free(text);
    text = compare_text(a, a, 1, &counts);
    assert_null(strstr(text, "SM clock differs"));
    free(text);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

static void equal_documents(void **state)
{
    (void)state;
    json_t *a = document(16384, true, true, "lru");
    gs_compare_counts c;
    char *text = compare_text_with(a, a, 1, true, &c);
    assert_int_equal(c.compared, 6 + 1);
    assert_int_equal(c.differing, 0);
    assert_int_equal(c.one_sided, 0);
    assert_non_null(strstr(text, "cache:l1." LONG_A));      /* full names, not cut at 34 */
    assert_non_null(strstr(text, "cache:l1." LONG_B));
    assert_non_null(strstr(text, "16 KiB"));                 /* 16384 B, with its unit */
    assert_non_null(strstr(text, "30 +-0.5 cycles"));
    free(text);
    text = compare_text(a, a, 1, &c);                        /* nothing changed: no table */
    assert_null(strstr(text, "cache:l1."));
    assert_non_null(strstr(text, "No figure differs"));
    free(text);
    json_decref(a);
}

static void changes_are_listed(void **state)
{
    (void)state;
    json_t *a = document(16384, true, true, "lru");
    json_t *b = document(32768, false, false, "fifo");
    gs_compare_counts c;
    char *text = compare_text(a, b, 1, &c);
    assert_int_equal(c.differing, 2);                        /* size, policy */
    assert_int_equal(c.one_sided, 2);                        /* sets (now n/d), tlb.entries */
    assert_int_equal(c.records_one_sided, 1);
    assert_non_null(strstr(text, "cache:l1.sets"));
    char *line = strstr(text, "cache:l1.sets");
    assert_non_null(strstr(line, "n/d"));
    assert_true(strchr(line, '\n')[-1] == '!');
    line = strstr(text, "tlb.entries");
    assert_non_null(line);
    assert_true(strchr(line, '\n')[-1] == '!');
    line = strstr(text, "cache:l1.policy");
    assert_true(strchr(line, '\n')[-1] == '*');
    free(text);
    text = compare_text(b, a, 1, &c);                        /* the other way round */
    assert_int_equal(c.one_sided, 2);
    assert_int_equal(c.records_one_sided, 1);
    assert_non_null(strstr(text, "tlb.entries"));
    free(text);
    json_decref(a);
    json_decref(b);
}

static void tolerance_moves_the_line(void **state)
{
    (void)state;
    json_t *a = document(16384, true, true, "lru");
    json_t *b = document(16384 * 1.05, true, true, "lru");   /* 5 % apart, exact figures */
    gs_compare_counts c;
    free(compare_text(a, b, 1, &c));
    assert_int_equal(c.differing, 1);
    free(compare_text(a, b, 10, &c));
    assert_int_equal(c.differing, 0);
    gs_error err;
    assert_int_equal(gs_report_compare(stdout, a, b, -1, &c, &err), GS_ERR_USAGE);
    json_decref(a);
    json_decref(b);
}

/* A one-figure document with a list figure and, if ci is given, its half-widths. */
static json_t *list_document(const double *values, const double *ci)
{
    gs_run *run = test_run();
    gs_probe_out *p = gs_run_add_probe(run, "random-walk");
    if (ci)
        gs_figure_list_ci(p, "latencies_cycles", values, ci, 3, "cycles", 20, "test");
    else
        gs_figure_list(p, "latencies_cycles", values, 3, "cycles", 20, "test");
    gs_probe_status(p, "ok", NULL);
    json_t *doc = finish(run);
    gs_error err;
    assert_int_equal(gs_report_validate(doc, &err), 0);
    return doc;
}

/* Lists compare element by element, each within its own interval (and the tolerance): two
 * random walks whose second level reads 277.5 +- 68.5 and 249.2 +- 30 agree; a list without
 * intervals differs where an element moves beyond the tolerance. */
static void lists_compare_by_element(void **state)
{
    (void)state;
    double va[] = {34.2, 277.5, 730}, ca[] = {6.4, 68.5, NAN};
    double vb[] = {34.6, 249.2, 731}, cb[] = {4.6, 30.0, NAN};
    json_t *a = list_document(va, ca), *b = list_document(vb, cb);
    gs_compare_counts c;
    char *text = compare_text(a, b, 1, &c);
    assert_int_equal(c.differing, 0);
    free(text);
    cb[1] = 5.0;                                             /* 277.5 - 249.2 > 68.5 + 5 */
    ca[1] = 20.0;
    json_decref(a);
    json_decref(b);
    a = list_document(va, ca);
    b = list_document(vb, cb);
    free(compare_text(a, b, 1, &c));
    assert_int_equal(c.differing, 1);
    json_decref(a);
    json_decref(b);
    a = list_document(va, NULL);                             /* no intervals: 1 % tolerance */
    double vc[] = {34.3, 278.0, 731};
    b = list_document(vc, NULL);
    free(compare_text(a, b, 1, &c));
    assert_int_equal(c.differing, 0);
    json_decref(b);
    b = list_document(vb, NULL);
    free(compare_text(a, b, 1, &c));
    assert_int_equal(c.differing, 1);
    json_decref(a);
    json_decref(b);
}

/* A document of one record "smem-banks" with figure name = value +- ci by method, on a device
 * whose SM clock is device_khz; with a clock record at clock_khz when that is above 0. */
static json_t *one_figure(const char *name, double value, double ci, const char *unit,
                          const char *method, double device_khz, double clock_khz)
{
    char *argv[] = {"gpusonar"};
    gs_run *run = gs_run_new(1, argv);
    gs_device_info d = {0};
    snprintf(d.name, sizeof d.name, "test GPU");
    snprintf(d.backend, sizeof d.backend, "sim");
    d.sm_count = 1;
    d.sm_clock_khz = device_khz;
    gs_run_set_device(run, &d);
    gs_probe_out *p;
    if (clock_khz > 0) {
        p = gs_run_add_probe(run, "clock");
        gs_figure(p, "sm_clock_khz", clock_khz, "kHz", 0, 8, "test");
        gs_probe_status(p, "ok", NULL);
    }
    p = gs_run_add_probe(run, "smem-banks");
    gs_figure(p, name, value, unit, ci, 16, method);
    gs_probe_status(p, "ok", NULL);
    return finish(run);
}

/* How many figures differ between a and b (both freed). */
static int differing(json_t *a, json_t *b)
{
    gs_compare_counts c;
    free(compare_text(a, b, 1, &c));
    json_decref(a);
    json_decref(b);
    return c.differing;
}

/* A median of clock reads moves in whole cycles, so each value is uncertain by at least one:
 * 31 +- 0.23 against 30 +- 0.44 or 29 +- 0.29 cycles (seeds of one model) is no change, 31
 * against 28 is; a mean has no such step, so 31 against 30 beyond the intervals differs. A median in ns converted at the SM clock (the
 * clock record's, else the device's) has one cycle's worth of ns. */
static void medians_move_by_their_resolution(void **state)
{
    (void)state;
    const char *median = "median of repeats: stride 0, every lane the same element";
    const char *mean = "mean of repeats";
    assert_int_equal(differing(one_figure("w2_cycles", 31, 0.2262, "cycles", median, 0, 0),
                               one_figure("w2_cycles", 30, 0.4549, "cycles", median, 0, 0)), 0);
    assert_int_equal(differing(one_figure("w2_cycles", 31, 0.2262, "cycles", median, 0, 0),
                               one_figure("w2_cycles", 29, 0.29, "cycles", median, 0, 0)), 0);
    assert_int_equal(differing(one_figure("w2_cycles", 31, 0.2262, "cycles", median, 0, 0),
                               one_figure("w2_cycles", 28, 0.29, "cycles", median, 0, 0)), 1);
    assert_int_equal(differing(one_figure("w2_cycles", 31, 0.2262, "cycles", mean, 0, 0),
                               one_figure("w2_cycles", 30, 0.4549, "cycles", mean, 0, 0)), 1);
    /* averages of many loads are not whole cycles: no resolution beyond the intervals */
    assert_int_equal(differing(one_figure("w2_cycles", 31.3, 0.01, "cycles", median, 0, 0),
                               one_figure("w2_cycles", 30.6, 0.01, "cycles", median, 0, 0)), 1);
    /* ns: 1 GHz on the device record (1 ns a cycle), 2 GHz measured (0.5 ns) */
    assert_int_equal(differing(one_figure("hit_ns", 31, 0, "ns", median, 1e6, 0),
                               one_figure("hit_ns", 30, 0, "ns", median, 1e6, 0)), 0);
    assert_int_equal(differing(one_figure("hit_ns", 15.5, 0, "ns", median, 1e6, 2e6),
                               one_figure("hit_ns", 15, 0, "ns", median, 1e6, 2e6)), 0);
    assert_int_equal(differing(one_figure("hit_ns", 15.5, 0, "ns", median, 1e6, 2e6),
                               one_figure("hit_ns", 14, 0, "ns", median, 1e6, 2e6)), 1);
    assert_int_equal(differing(one_figure("hit_ns", 31, 0, "ns", median, 0, 0),
                               one_figure("hit_ns", 30, 0, "ns", median, 0, 0)), 1);
}

/* A figure in % is itself a share: the tolerance is in percentage points. Two runs' SM clocks
 * 0.024 % and 0.016 % from the driver's have not moved; 2.5 % and 0.5 % have. In any other
 * unit it is a share of the larger value: 0.0242 and 0.0163 B/cycle are apart. */
static void percentages_move_by_points(void **state)
{
    (void)state;
    const char *mean = "mean of windows";
    assert_int_equal(differing(one_figure("vs_driver_percent", -0.0242, 0, "%", mean, 0, 0),
                               one_figure("vs_driver_percent", -0.0163, 0, "%", mean, 0, 0)), 0);
    assert_int_equal(differing(one_figure("vs_driver_percent", 2.5, 0, "%", mean, 0, 0),
                               one_figure("vs_driver_percent", 0.5, 0, "%", mean, 0, 0)), 1);
    assert_int_equal(differing(one_figure("rate", 0.0242, 0, "B/cycle", mean, 0, 0),
                               one_figure("rate", 0.0163, 0, "B/cycle", mean, 0, 0)), 1);
}

/* How many figures moved as runs decide (marked ~, not counted) between a and b (both freed). */
static int run_decided(json_t *a, json_t *b)
{
    gs_compare_counts c;
    char *text = compare_text(a, b, 1, &c);
    if (c.run_decided)
        assert_non_null(strstr(text, "  ~\n"));
    free(text);
    json_decref(a);
    json_decref(b);
    assert_int_equal(c.differing, 0);
    return c.run_decided;
}

/* The rms of a fit's residuals that states no interval has the sampling spread of a standard
 * deviation from its n (16) points, 1.96 / sqrt(32) = 35 % of it: two seeds' 0.336 and 0.362
 * agree; 0.3 and 0.9 moved, but a fit's residual is listed, not counted, as fleet does not judge
 * it. So is an L2 hit latency that depends on the partition a line lands in, and a word naming
 * the largest of near-equal alternatives. */
static void residuals_and_placement_are_not_counted(void **state)
{
    (void)state;
    const char *rms = "residual rms of the chosen hypothesis";
    assert_int_equal(run_decided(one_figure("fit_rms_cycles", 0.336, 0, "cycles", rms, 0, 0),
                                 one_figure("fit_rms_cycles", 0.362, 0, "cycles", rms, 0, 0)), 0);
    assert_int_equal(run_decided(one_figure("fit_rms_cycles", 0.3, 0, "cycles", rms, 0, 0),
                                 one_figure("fit_rms_cycles", 0.9, 0, "cycles", rms, 0, 0)), 1);
    gs_run *run[2];
    for (int i = 0; i < 2; i++) {
        run[i] = test_run();
        gs_probe_out *p = gs_run_add_probe(run[i], "global-patterns");
        gs_figure(p, "latency_l2_hit_ca_cycles", i ? 300 : 212, "cycles", 5, 16, "median");
        gs_probe_status(p, "ok", NULL);
        p = gs_run_add_probe(run[i], "bandwidth");
        gs_figure_text(p, "best_copy_config", i ? "copy, 128 threads" : "copy", 1,
                       "largest median copy bandwidth over the configurations");
        gs_probe_status(p, "ok", NULL);
    }
    assert_int_equal(run_decided(finish(run[0]), finish(run[1])), 2);
}

/* Only what changed is printed, in units people read: 48 MiB, not 5.03346e+07; every figure with
 * all. */
static void changes_in_readable_units(void **state)
{
    (void)state;
    json_t *a = document(50331648, true, true, "lru"), *b = document(33554432, true, true, "lru");
    gs_compare_counts c;
    char *text = compare_text(a, b, 1, &c);
    assert_int_equal(c.differing, 1);
    assert_non_null(strstr(text, "cache:l1.size_bytes"));
    assert_non_null(strstr(text, "48 MiB"));
    assert_non_null(strstr(text, "32 MiB"));
    assert_null(strstr(text, "e+07"));
    assert_null(strstr(text, "hit_latency_cycles"));         /* unchanged: not listed */
    free(text);
    text = compare_text_with(a, b, 1, true, &c);
    assert_non_null(strstr(text, "hit_latency_cycles"));
    free(text);
    json_decref(a);
    json_decref(b);
}

/* A document of n records of one name and level, each with FIGURES figures (about 1.5 kB a
 * record written out, as a long campaign's document holds). */
#define MANY_FIGURES 10
static json_t *many_records(size_t n)
{
    gs_run *run = test_run();
    for (size_t i = 0; i < n; i++) {
        gs_probe_out *p = gs_run_add_probe(run, "cache");
        gs_param_string(p, "level", "l1");
        for (int k = 0; k < MANY_FIGURES; k++) {
            char name[32];
            snprintf(name, sizeof name, "figure_%d_cycles", k);
            gs_figure(p, name, (double)(i * MANY_FIGURES + (size_t)k), "cycles", 0.5, 16,
                      "a median of repeats, made up");
        }
        gs_probe_status(p, "ok", NULL);
    }
    return finish(run);
}

/* 8,000 records of one name compared with themselves: matched by an index, not by a search per
 * record (which took a minute). CPU time, so that a busy machine does not fail it: far under 5 s
 * even under the sanitizers. */
static void many_records_compare_in_linear_time(void **state)
{
    (void)state;
    json_t *a = many_records(8000);
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    gs_compare_counts c;
    gs_error err;
    gs_compare_opts opts = {GS_COMPARE_TOLERANCE_PERCENT, true};
    clock_t start = clock();
    assert_int_equal(gs_report_compare_with(sink, a, a, &opts, &c, &err), 0);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    fclose(sink);
    assert_int_equal(c.compared, 8000 * MANY_FIGURES);
    assert_int_equal(c.differing + c.one_sided + c.records_one_sided, 0);
    if (seconds > 5)
        fail_msg("8000 records compared in %.1f s of CPU time; want under 5", seconds);
    json_decref(a);
}

/* Break a valid document with one change; the validator must name path. */
static void expect_invalid(const char *change_json_path, json_t *replacement, const char *path)
{
    json_t *doc = document(16384, true, true, "lru");
    gs_error err;
    assert_int_equal(gs_report_validate(doc, &err), 0);
    /* change_json_path: "top KEY", "probe KEY", "figure KEY", "series KEY" */
    char where[16], key[32];
    assert_int_equal(sscanf(change_json_path, "%15s %31s", where, key), 2);
    json_t *probe = json_array_get(json_object_get(doc, "probes"), 0);
    json_t *target = strcmp(where, "top") == 0 ? doc
                   : strcmp(where, "probe") == 0 ? probe
                   : strcmp(where, "device") == 0 ? json_object_get(doc, "device")
                   : json_object_get(json_object_get(probe, "figures"), "size_bytes");
    if (strcmp(where, "series") == 0) {
        double x[] = {1, 2}, y[] = {3, 4};
        gs_series(probe, "sweep", "size", "B", "latency", "cycles", x, y, 2);
        target = json_object_get(json_object_get(probe, "series"), "sweep");
    }
    if (replacement)
        json_object_set_new(target, key, replacement);
    else
        json_object_del(target, key);
    gs_error_clear(&err);
    int rc = gs_report_validate(doc, &err);
    if (rc != GS_ERR_INPUT || strncmp(err.msg, path, strlen(path)) != 0)
        fail_msg("%s: rc %d, message '%s'; wanted it to start with '%s'", change_json_path, rc,
                 err.msg, path);
    json_decref(doc);
}

static void broken_documents(void **state)
{
    (void)state;
    expect_invalid("top schema", json_string("gpusonar/2"), "$.schema");
    expect_invalid("top probes", json_object(), "$.probes: must be a list");
    expect_invalid("top complete", json_string("yes"), "$.complete");
    expect_invalid("top time_utc", json_string("yesterday"), "$.time_utc");
    expect_invalid("top colour", json_integer(1), "$.colour: unknown key");
    expect_invalid("top command_line", json_pack("[i]", 3), "$.command_line");
    expect_invalid("top device", json_string("gpu"), "$.device");
    expect_invalid("device simulated", NULL, "$.device.simulated: missing");
    expect_invalid("top environment", json_pack("{s:s, s:b, s:b}", "host", "h", "nvml", 0,
                                                "throttled", 0), "$.environment.shared: missing");
    expect_invalid("top environment", json_pack("{s:s, s:b, s:b, s:b, s:{s:s}}", "host", "h",
                                                "nvml", 0, "throttled", 0, "shared", 0, "start",
                                                "power_w", "high"),
                   "$.environment.start.power_w");
    expect_invalid("device backend", json_string("opencl"), "$.device.backend");
    expect_invalid("device compute_capability", json_string("nine"),
                   "$.device.compute_capability");
    expect_invalid("probe figures", json_array(), "$.probes[0].figures: must be an object");
    expect_invalid("probe name", NULL, "$.probes[0].name: missing");
    expect_invalid("probe status", json_string("fine"), "$.probes[0].status");
    expect_invalid("probe warnings", json_pack("[n]"), "$.probes[0].warnings");
    expect_invalid("probe elapsed_s", json_string("1 s"), "$.probes[0].elapsed_s");
    expect_invalid("figure ci95", json_real(-1), "$.probes[0].figures.size_bytes.ci95");
    expect_invalid("figure ci95", json_pack("[f]", 1.0),     /* a list for a number */
                   "$.probes[0].figures.size_bytes: ci95 is a list");
    expect_invalid("figure ci95", json_pack("[s]", "wide"), "$.probes[0].figures.size_bytes.ci95");
    expect_invalid("figure n", json_real(1.5), "$.probes[0].figures.size_bytes.n");
    expect_invalid("figure unit", NULL, "$.probes[0].figures.size_bytes.unit: missing");
    expect_invalid("figure value", json_pack("{}"), "$.probes[0].figures.size_bytes.value");
    expect_invalid("figure value", json_null(), "$.probes[0].figures.size_bytes.reason: missing");
    expect_invalid("figure extra", json_true(), "$.probes[0].figures.size_bytes.extra");
    expect_invalid("series y", json_pack("[i]", 1), "$.probes[0].series.sweep.y: must be as long");
    expect_invalid("series x", json_pack("[s, i]", "a", 1), "$.probes[0].series.sweep.x");
    expect_invalid("series x_unit", NULL, "$.probes[0].series.sweep.x_unit: missing");
}

static void load_validates(void **state)
{
    (void)state;
    char path[] = "/tmp/gs_compare_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"schema\": \"gpusonar/1\", \"tool\": {\"name\": \"gpusonar\", \"version\": \"0\", "
          "\"commit\": \"x\"}, \"command_line\": [], \"time_utc\": \"2026-01-01T00:00:00Z\", "
          "\"complete\": true, \"device\": null, \"probes\": [{\"name\": \"p\"}]}", f);
    fclose(f);
    json_t *doc = NULL;
    gs_error err;
    assert_int_equal(gs_report_load(path, &doc, &err), GS_ERR_INPUT);
    assert_null(doc);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "$.probes[0].status: missing"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_documents),
        cmocka_unit_test(clock_state_is_named),
        cmocka_unit_test(changes_are_listed),
        cmocka_unit_test(tolerance_moves_the_line),
        cmocka_unit_test(lists_compare_by_element),
        cmocka_unit_test(medians_move_by_their_resolution),
        cmocka_unit_test(percentages_move_by_points),
        cmocka_unit_test(residuals_and_placement_are_not_counted),
        cmocka_unit_test(changes_in_readable_units),
        cmocka_unit_test(many_records_compare_in_linear_time),
        cmocka_unit_test(broken_documents),
        cmocka_unit_test(load_validates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
