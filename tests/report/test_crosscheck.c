/* Unit tests of the cross-check (src/result/crosscheck.c) and its printers: views of one
 * sequence agree or are unexplained, a sequence that holds more may only lie above, a lower
 * bound only below, a structure with one view is left out, and the list passes the validator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "report/crosscheck_print.h"
#include "report/report.h"
#include "result/crosscheck.h"
#include "result/result.h"

/* A document with an L1 seen by cache:l1 (average and trace), global-patterns and random-walk
 * (its first level walk_l1_bytes large), and the constant cache by random-walk and cache:const1. */
static gs_run *sample_sized(double walk_l1, double walk_l1_bytes, double trace_l1,
                            double const_size)
{
    char *argv[] = {"gpusonar", "report"};
    gs_run *run = gs_run_new(2, argv);
    assert_non_null(run);
    gs_probe_out *p = gs_run_add_probe(run, "cache");
    gs_param_string(p, "level", "l1");
    gs_figure(p, "size_bytes", 196608, "B", 0, 1, "test");
    gs_figure(p, "hit_latency_cycles", 32.0, "cycles", 0, 1, "test");
    gs_figure(p, "trace_hit_latency_cycles", trace_l1, "cycles", 0, 1, "test");
    p = gs_run_add_probe(run, "cache");
    gs_param_string(p, "level", "const1");
    gs_figure(p, "size_bytes", const_size, "B", 0, 1, "test");
    p = gs_run_add_probe(run, "global-patterns");
    gs_figure(p, "latency_l1_hit_ca_cycles", 32.1, "cycles", 0.25, 16, "test");
    p = gs_run_add_probe(run, "random-walk");
    gs_figure(p, "global_level1_latency_cycles", walk_l1, "cycles", 0.5, 9, "test");
    gs_figure(p, "global_level1_capacity_bytes", walk_l1_bytes, "B", 9000, 9, "test");
    gs_figure(p, "constant_level1_capacity_bytes", 2030, "B", 40, 9, "test");
    gs_figure(p, "shared_level1_latency_cycles", 23, "cycles", 0, 9, "test");
    gs_run_finish(run, true, NULL);
    return run;
}

static gs_run *sample(double walk_l1, double trace_l1, double const_size)
{
    return sample_sized(walk_l1, 200000, trace_l1, const_size);
}

static const json_t *structure(const json_t *list, const char *name)
{
    size_t i;
    const json_t *s;
    json_array_foreach(list, i, s)
        if (strcmp(json_string_value(json_object_get(s, "structure")), name) == 0)
            return s;
    return NULL;
}

static const char *verdict_of(const json_t *list, const char *name)
{
    const json_t *s = structure(list, name);
    assert_non_null(s);
    return json_string_value(json_object_get(s, "verdict"));
}

static const char *view_verdict(const json_t *list, const char *name, const char *figure)
{
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(structure(list, name), "views"), i, v)
        if (strcmp(json_string_value(json_object_get(v, "figure")), figure) == 0)
            return json_string_value(json_object_get(v, "verdict"));
    fail_msg("no view %s of %s", figure, name);
    return NULL;
}

static void test_agree_and_named(void **state)
{
    (void)state;
    gs_run *run = sample(32.3, 45, 1664);
    const json_t *list = json_object_get(run->doc, "crosscheck");
    assert_true(json_is_array(list));
    assert_string_equal(verdict_of(list, "L1 hit latency"), "apart");
    assert_string_equal(view_verdict(list, "L1 hit latency", "hit_latency_cycles"), "quote");
    assert_string_equal(view_verdict(list, "L1 hit latency", "latency_l1_hit_ca_cycles"), "agree");
    assert_string_equal(view_verdict(list, "L1 hit latency", "global_level1_latency_cycles"),
                        "agree");
    assert_string_equal(view_verdict(list, "L1 hit latency", "trace_hit_latency_cycles"), "apart");
    /* the quoted constant-cache size is random-walk's; cache's lower bound lies below it */
    assert_string_equal(verdict_of(list, "constant L1 size"), "apart");
    assert_string_equal(view_verdict(list, "constant L1 size", "constant_level1_capacity_bytes"),
                        "quote");
    /* a structure with one view is not cross-checked */
    assert_null(structure(list, "shared-memory latency"));
    gs_error err;
    assert_int_equal(gs_report_validate(run->doc, &err), 0);
    gs_run_free(run);
}

static void test_unexplained(void **state)
{
    (void)state;
    /* the same sequence 3 cycles away (beyond 1 cycle + intervals) */
    gs_run *run = sample(35.5, 45, 1664);
    const json_t *list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "L1 hit latency"), "unexplained");
    gs_run_free(run);
    /* a trace below the average it includes */
    run = sample(32.3, 25, 1664);
    list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(view_verdict(list, "L1 hit latency", "trace_hit_latency_cycles"),
                        "unexplained");
    gs_run_free(run);
    /* a lower bound above the capacity */
    run = sample(32.3, 45, 2600);
    list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "constant L1 size"), "unexplained");
    gs_run_free(run);
}

/* A walk's first level whose capacity is not the L1's (a GPU whose L1 does not cache global
 * loads: the walk's first level is the L2) is no view of the L1, whatever its latency. */
static void test_walk_level_by_capacity(void **state)
{
    (void)state;
    gs_run *run = sample_sized(231, 1572864, 45, 1664);
    const json_t *list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "L1 hit latency"), "apart");
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(structure(list, "L1 hit latency"), "views"), i, v)
        assert_string_not_equal(json_string_value(json_object_get(v, "probe")), "random-walk");
    /* the L1 size is the one structure where the two meet, and there they are unexplained */
    assert_string_equal(verdict_of(list, "L1 size"), "unexplained");
    gs_run_free(run);
}

/* A random walk's capacity may lie below the L1's size (random lines overfill some sets before
 * the cache is full), never above it: 16.6 KB below 196,608 B (beyond a 32nd and its 9-KB
 * interval) is apart, 18.4 KB above is unexplained. */
static void test_walk_capacity_below_size(void **state)
{
    (void)state;
    gs_run *run = sample_sized(32.3, 180000, 45, 1664);
    const json_t *list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "L1 size"), "apart");
    assert_string_equal(view_verdict(list, "L1 size", "global_level1_capacity_bytes"), "apart");
    gs_run_free(run);
    run = sample_sized(32.3, 215000, 45, 1664);
    list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "L1 size"), "unexplained");
    gs_run_free(run);
}

static void test_within_tolerance(void **state)
{
    (void)state;
    /* within a 32nd of 2030 B (63 B) and its 40-B interval, 2000 B agrees */
    gs_run *run = sample(32.3, 32.5, 2000);
    const json_t *list = json_object_get(run->doc, "crosscheck");
    assert_string_equal(verdict_of(list, "constant L1 size"), "agree");
    assert_string_equal(verdict_of(list, "L1 hit latency"), "agree");
    gs_run_free(run);
}

static void test_validator_refuses(void **state)
{
    (void)state;
    gs_run *run = sample(32.3, 45, 1664);
    json_t *s = json_array_get(json_object_get(run->doc, "crosscheck"), 0);
    json_object_set_new(s, "verdict", json_string("fine"));
    gs_error err;
    assert_int_not_equal(gs_report_validate(run->doc, &err), 0);
    assert_non_null(strstr(err.msg, "$.crosscheck[0].verdict"));
    json_object_set_new(s, "verdict", json_string("agree"));
    json_object_set_new(json_array_get(json_object_get(s, "views"), 0), "value",
                        json_string("32"));
    assert_int_not_equal(gs_report_validate(run->doc, &err), 0);
    gs_run_free(run);
}

/* The text: one summary line, a line per unexplained structure; --details every view. */
static void test_text(void **state)
{
    (void)state;
    gs_run *run = sample(35.5, 45, 1664);
    json_object_del(run->doc, "crosscheck");   /* an older document: computed when printed */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_report_crosscheck_text(f, run->doc, GS_REPORT_SUMMARY);
    fclose(f);
    assert_non_null(strstr(buf, "UNEXPLAINED"));
    assert_non_null(strstr(buf, "L1 hit latency"));
    assert_null(strstr(buf, "constant L1 size"));
    free(buf);
    f = open_memstream(&buf, &len);
    gs_report_crosscheck_text(f, run->doc, GS_REPORT_DETAILS);
    fclose(f);
    assert_non_null(strstr(buf, "constant L1 size"));
    assert_non_null(strstr(buf, "random-walk global_level1_latency_cycles: unexplained"));
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        assert_true(strlen(line) <= 104);    /* 100 characters, "±" two bytes */
    free(buf);
    f = open_memstream(&buf, &len);
    gs_report_crosscheck_csv(f, run->doc);
    fclose(f);
    assert_non_null(strstr(buf, "\"crosscheck\",\"L1 hit latency\",\"unexplained\","));
    free(buf);
    gs_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree_and_named),
        cmocka_unit_test(test_unexplained),
        cmocka_unit_test(test_walk_level_by_capacity),
        cmocka_unit_test(test_walk_capacity_below_size),
        cmocka_unit_test(test_within_tolerance),
        cmocka_unit_test(test_validator_refuses),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
