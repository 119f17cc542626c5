/* Unit tests of src/report/fleet.c and fleet_print.c with synthetic result documents: robust
 * statistics, grouping by GPU model, outliers (a planted one flagged, noise and exact agreement
 * not), models with too few GPUs not judged, version mismatches set aside, invalid inputs
 * listed, thousands of records of one name in linear time, and the printers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gs_test.h"

#include "report/fleet.h"

/* A document of one GPU: device name, host, uuid, version, and two figures. */
static json_t *doc(const char *device, const char *host, const char *uuid, const char *version,
                   double l2_bytes, double latency_cycles, double latency_ci95)
{
    return json_pack("{s:s, s:{s:s, s:s, s:s}, s:b, s:{s:s, s:s, s:b}, s:{s:s, s:s},"
                     " s:[{s:s, s:{s:s}, s:{s:{s:f, s:s, s:f, s:i, s:s},"
                     " s:{s:f, s:s, s:f, s:i, s:s}, s:{s:s, s:s, s:f, s:i, s:s}}}]}",
                     "schema", "gpusonar/1", "tool", "name", "gpusonar", "version", version,
                     "commit", "abc", "complete", 1, "device", "name", device,
                     "compute_capability", "9.0", "simulated", 0, "environment", "host", host,
                     "uuid", uuid, "probes", "name", "cache", "params", "level", "l2", "figures",
                     "size_bytes", "value", l2_bytes, "unit", "B", "ci95", 0.0, "n", 1, "method",
                     "t", "hit_latency_cycles", "value", latency_cycles, "unit", "cycles", "ci95",
                     latency_ci95, "n", 100, "method", "t", "policy", "value", "lru", "unit", "",
                     "ci95", 0.0, "n", 1, "method", "t");
}

typedef struct fleet {
    json_t *docs[16];
    gs_fleet_input in[16];
    size_t n;
} fleet;

static void add(fleet *f, json_t *d)
{
    static char paths[16][32];
    snprintf(paths[f->n], sizeof paths[f->n], "doc%zu.json", f->n);
    assert_non_null(d);
    f->docs[f->n] = d;
    f->in[f->n] = (gs_fleet_input){paths[f->n], d, NULL};
    f->n++;
}

/* Six clean H100s whose latencies differ by noise (about 0.3 %, within their intervals). */
static void clean_six(fleet *f)
{
    static const double noise[6] = {0.0, 0.1, -0.1, 0.05, -0.05, 0.08};
    for (int i = 0; i < 6; i++) {
        char host[16], uuid[16];
        snprintf(host, sizeof host, "node%d", i + 1);
        snprintf(uuid, sizeof uuid, "GPU-%d", i + 1);
        add(f, doc("H100", host, uuid, "0.1.0", 50331648, 262.0 + noise[i], 0.3));
    }
}

static json_t *analyse(fleet *f)
{
    gs_fleet_options opt = gs_fleet_default_options();
    gs_error err;
    json_t *a = NULL;
    assert_int_equal(gs_fleet_analyse(f->in, f->n, &opt, &a, &err), 0);
    assert_non_null(a);
    return a;
}

static void release(fleet *f, json_t *a)
{
    json_decref(a);
    for (size_t i = 0; i < f->n; i++)
        json_decref(f->docs[i]);
}

static void test_median_mad(void **state)
{
    (void)state;
    double v[] = {5, 1, 3, 2, 4}, med, mad;
    gs_fleet_median_mad(v, 5, &med, &mad);
    assert_double_equal(med, 3, 0);
    assert_double_equal(mad, 1, 0);
    double even[] = {1, 2, 3, 10};
    gs_fleet_median_mad(even, 4, &med, &mad);
    assert_double_equal(med, 2.5, 0);
    assert_double_equal(mad, 1, 0); /* |dev| = 1.5 0.5 0.5 7.5 -> median 1 */
    double one[] = {7};
    gs_fleet_median_mad(one, 1, &med, &mad);
    assert_double_equal(med, 7, 0);
    assert_double_equal(mad, 0, 0);
    assert_double_equal(gs_fleet_robust_z(5, 3, 1, 9), 0.6745 * 2, 1e-12);
    assert_double_equal(gs_fleet_robust_z(3, 3, 0, 0), 0, 0);
    assert_double_equal(gs_fleet_robust_z(5, 3, 0, 0.5), 2 / (1.253314 * 0.5), 1e-9);
    assert_true(isinf(gs_fleet_robust_z(4, 3, 0, 0)) && gs_fleet_robust_z(4, 3, 0, 0) > 0);
    assert_true(isinf(gs_fleet_robust_z(2, 3, 0, 0)) && gs_fleet_robust_z(2, 3, 0, 0) < 0);
}

static void test_clean_fleet_has_no_outlier(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    assert_false(gs_fleet_has_trouble(a));
    json_t *groups = json_object_get(a, "groups");
    assert_int_equal(json_array_size(groups), 1);
    json_t *g = json_array_get(groups, 0);
    assert_int_equal(json_array_size(json_object_get(g, "gpus")), 6);
    /* two numeric figures; the word "lru" is not a number */
    json_t *figs = json_object_get(g, "figures");
    assert_int_equal(json_array_size(figs), 2);
    json_t *lat = json_array_get(figs, 1);
    assert_string_equal(json_string_value(json_object_get(lat, "figure")),
                        "cache:l2.hit_latency_cycles");
    assert_double_equal(json_number_value(json_object_get(lat, "median")), 262.025, 1e-9);
    assert_double_equal(json_number_value(json_object_get(lat, "min")), 261.9, 1e-9);
    assert_double_equal(json_number_value(json_object_get(lat, "max")), 262.1, 1e-9);
    release(&f, a);
}

static void test_planted_outlier_is_flagged_alone(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    add(&f, doc("H100", "node7", "GPU-7", "0.1.0", 25165824, 262.05, 0.3)); /* half the L2 */
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 1);
    json_t *o = json_array_get(json_object_get(a, "outliers"), 0);
    assert_string_equal(json_string_value(json_object_get(o, "host")), "node7");
    assert_string_equal(json_string_value(json_object_get(o, "uuid")), "GPU-7");
    assert_string_equal(json_string_value(json_object_get(o, "figure")), "cache:l2.size_bytes");
    assert_double_equal(json_number_value(json_object_get(o, "value")), 25165824, 0);
    assert_double_equal(json_number_value(json_object_get(o, "median")), 50331648, 0);
    assert_double_equal(json_number_value(json_object_get(o, "relative")), -0.5, 1e-12);
    /* the others agree exactly: MAD 0, scored against the mean absolute deviation (1/7 of 24 MiB) */
    assert_double_equal(json_number_value(json_object_get(o, "robust_z")), -7 / 1.253314, 1e-9);
    release(&f, a);
}

static void test_slow_latency_is_flagged(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    add(&f, doc("H100", "node7", "GPU-7", "0.1.0", 50331648, 300.0, 0.3)); /* +14.5 % */
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 1);
    json_t *o = json_array_get(json_object_get(a, "outliers"), 0);
    assert_string_equal(json_string_value(json_object_get(o, "figure")),
                        "cache:l2.hit_latency_cycles");
    assert_true(json_number_value(json_object_get(o, "robust_z")) > 3.5);
    release(&f, a);
}

/* A large z alone is not enough: 1 % off is below the relative floor, and a value whose own
 * interval covers the gap is not a difference. */
static void test_floors_hold_back_small_and_uncertain(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    add(&f, doc("H100", "node7", "GPU-7", "0.1.0", 50331648, 264.6, 0.3)); /* +1 % */
    add(&f, doc("H100", "node8", "GPU-8", "0.1.0", 50331648, 300.0, 40.0)); /* wide interval */
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    json_decref(a);
    gs_fleet_options opt = gs_fleet_default_options();
    opt.min_relative = 0.005; /* a tighter floor flags the 1 % one, not the uncertain one */
    gs_error err;
    assert_int_equal(gs_fleet_analyse(f.in, f.n, &opt, &a, &err), 0);
    assert_int_equal(gs_fleet_outlier_count(a), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(a, "outliers"), 0), "host")), "node7");
    release(&f, a);
}

/* A value a large minority shares is a second mode, not an outlier: 6 GPUs at one L2 latency and
 * 4 at another (MAD 0, mean-AD score 2.0). A lone deviating GPU among four scores 3.2: too few
 * GPUs to call it at the default threshold, flagged at a lower one. */
static void test_bimodal_and_small_groups(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    for (int i = 0; i < 4; i++)
        add(&f, doc("H100", "far", "GPU-far", "0.1.0", 50331648 * 1.5, 262.0, 0.3));
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    release(&f, a);
    fleet g = {0};
    for (int i = 0; i < 3; i++)
        add(&g, doc("H100", "n", "GPU", "0.1.0", 50331648, 262.0, 0.3));
    add(&g, doc("H100", "odd", "GPU-odd", "0.1.0", 25165824, 262.0, 0.3));
    a = analyse(&g);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    json_decref(a);
    gs_fleet_options opt = gs_fleet_default_options();
    opt.z_threshold = 3.0;
    gs_error err;
    assert_int_equal(gs_fleet_analyse(g.in, g.n, &opt, &a, &err), 0);
    assert_int_equal(gs_fleet_outlier_count(a), 1);
    release(&g, a);
}

/* Placement-dependent figures and fit residuals are summarised, not judged, unless asked. */
static void test_not_judged(void **state)
{
    (void)state;
    assert_non_null(gs_fleet_not_judged("global-patterns.latency_l2_hit_ca_cycles"));
    assert_non_null(gs_fleet_not_judged("smem-banks.fit_rms_cycles"));
    assert_non_null(gs_fleet_not_judged("roofline.fadd_model_error_percent"));
    assert_non_null(gs_fleet_not_judged("random-walk.constant_fit_residual_cycles"));
    assert_null(gs_fleet_not_judged("global-patterns.latency_l2_miss_ca_cycles"));
    assert_null(gs_fleet_not_judged("cache:l2.size_bytes"));
    fleet f = {0};
    for (int i = 0; i < 6; i++)
        add(&f, json_pack("{s:s, s:{s:s}, s:{s:s, s:s}, s:{s:s, s:s}, s:[{s:s, s:{}, s:{s:{s:f, "
                          "s:s, s:f, s:i, s:s}}}]}", "schema", "gpusonar/1", "tool", "version",
                          "0.1.0", "device", "name", "H100", "compute_capability", "9.0",
                          "environment", "host", "h", "uuid", "u", "probes", "name",
                          "smem-banks", "params", "figures", "fit_rms_cycles", "value",
                          i == 5 ? 9.0 : 0.35, "unit", "cycles", "ci95", 0.0, "n", 1, "method",
                          "t"));
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    json_t *fig = json_array_get(json_object_get(json_array_get(json_object_get(a, "groups"), 0),
                                                 "figures"), 0);
    assert_string_equal(json_string_value(json_object_get(fig, "not_judged")), "residual of a fit");
    json_decref(a);
    gs_fleet_options opt = gs_fleet_default_options();
    opt.judge_all = true;
    gs_error err;
    assert_int_equal(gs_fleet_analyse(f.in, f.n, &opt, &a, &err), 0);
    assert_int_equal(gs_fleet_outlier_count(a), 1);
    release(&f, a);
}

static void test_models_are_grouped_not_compared(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    for (int i = 0; i < 3; i++)
        add(&f, doc("A100", "a", "GPU-a", "0.1.0", 41943040, 200.0, 0.3));
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    assert_int_equal(json_array_size(json_object_get(a, "groups")), 2);
    json_t *g = json_array_get(json_object_get(a, "groups"), 1);
    assert_string_equal(json_string_value(json_object_get(g, "device")), "A100");
    release(&f, a);
}

/* Print into memory and return it (caller frees). */
static char *print(const json_t *a, gs_fleet_format fmt);

/* Two GPUs of a model cannot be judged: the model is said to be not judged (its group, the list,
 * the headline, every format), and "No outliers." is not printed for it. */
static void test_too_few_gpus_are_not_judged(void **state)
{
    (void)state;
    fleet f = {0};
    add(&f, doc("H100", "n1", "GPU-1", "0.1.0", 50331648, 262.0, 0.3));
    add(&f, doc("H100", "n2", "GPU-2", "0.1.0", 25165824, 262.0, 0.3));
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    assert_int_equal(gs_fleet_not_judged_count(a), 1);
    json_t *g = json_array_get(json_object_get(a, "groups"), 0);
    assert_true(json_is_false(json_object_get(g, "judged")));
    assert_non_null(strstr(json_string_value(json_object_get(g, "not_judged")), "at least 3"));
    char *text = print(a, GS_FLEET_TEXT);
    assert_true(strncmp(text, "gpusonar fleet: 2 documents, 1 GPU model, NOT JUDGED: fewer than "
                              "3 GPUs of it", 68) == 0);
    assert_non_null(strstr(text, "Not judged: H100 (compute capability 9.0): 2 GPUs"));
    assert_null(strstr(text, "No outliers"));
    free(text);
    char *md = print(a, GS_FLEET_MARKDOWN);
    assert_non_null(strstr(md, "## Not judged"));
    free(md);
    char *csv = print(a, GS_FLEET_CSV);
    assert_non_null(strstr(csv, "\n\"not_judged\",\"H100\",\"9.0\",,,2,"));
    free(csv);
    release(&f, a);

    fleet m = {0};                      /* judged beside one that is not */
    clean_six(&m);
    add(&m, doc("A100", "a1", "GPU-a1", "0.1.0", 41943040, 200.0, 0.3));
    a = analyse(&m);
    assert_int_equal(gs_fleet_not_judged_count(a), 1);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(a, "groups"), 0),
                                             "judged")));
    text = print(a, GS_FLEET_TEXT);
    assert_non_null(strstr(text, "0 outliers; 1 model NOT JUDGED: fewer than 3 GPUs"));
    assert_non_null(strstr(text, "No outliers among the models judged."));
    free(text);
    release(&m, a);
}

/* A document of one GPU holding n records of one name and level, MANY_FIGURES figures each. */
#define MANY_FIGURES 10
static json_t *many_records(const char *host, size_t n)
{
    json_t *probes = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *figures = json_object();
        for (int k = 0; k < MANY_FIGURES; k++) {
            char name[32];
            snprintf(name, sizeof name, "figure_%d_cycles", k);
            json_object_set_new(figures, name,
                                json_pack("{s:f, s:s, s:f, s:i, s:s}", "value", (double)i, "unit",
                                          "cycles", "ci95", 0.5, "n", 16, "method", "t"));
        }
        json_array_append_new(probes, json_pack("{s:s, s:{s:s}, s:o}", "name", "cache", "params",
                                                "level", "l1", "figures", figures));
    }
    return json_pack("{s:s, s:{s:s}, s:{s:s, s:s}, s:{s:s, s:s}, s:o}", "schema", "gpusonar/1",
                     "tool", "version", "0.1.0", "device", "name", "H100", "compute_capability",
                     "9.0", "environment", "host", host, "uuid", host, "probes", probes);
}

/* Three GPUs' documents of 8,000 records of one name each: every record keyed in one pass (a
 * count of the records before it per record took half a minute). CPU time, far under 5 s even
 * under the sanitizers. */
static void test_many_records_in_linear_time(void **state)
{
    (void)state;
    fleet f = {0};
    add(&f, many_records("n1", 8000));
    add(&f, many_records("n2", 8000));
    add(&f, many_records("n3", 8000));
    clock_t start = clock();
    json_t *a = analyse(&f);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    json_t *figures = json_object_get(json_array_get(json_object_get(a, "groups"), 0), "figures");
    assert_int_equal(json_array_size(figures), 8000 * MANY_FIGURES);
    assert_string_equal(json_string_value(json_object_get(json_array_get(figures, 8000 *
                        MANY_FIGURES - 1), "figure")), "cache:l1#8000.figure_9_cycles");
    assert_int_equal(gs_fleet_outlier_count(a), 0);
    if (seconds > 5)
        fail_msg("3 x 8000 records analysed in %.1f s of CPU time; want under 5", seconds);
    release(&f, a);
}

static void test_other_versions_and_invalid_are_listed(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    add(&f, doc("H100", "old", "GPU-old", "0.0.9", 25165824, 400.0, 0.3));
    f.in[f.n] = (gs_fleet_input){"broken.json", NULL, "broken.json:1: unexpected token"};
    f.docs[f.n++] = NULL;
    add(&f, json_pack("{s:s, s:{s:s}, s:n, s:[]}", "schema", "gpusonar/1", "tool", "version",
                      "0.1.0", "device", "probes"));
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 0); /* the old one is not mixed in */
    assert_true(gs_fleet_has_trouble(a));
    json_t *aside = json_object_get(a, "set_aside");
    assert_int_equal(json_array_size(aside), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(aside, 0), "version")),
                        "0.0.9");
    json_t *invalid = json_object_get(a, "invalid");
    assert_int_equal(json_array_size(invalid), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(invalid, 0), "path")),
                        "broken.json");
    assert_string_equal(json_string_value(json_object_get(a, "version")), "gpusonar/1 0.1.0");
    release(&f, a);
}

/* Print into memory and return it (caller frees). */
static char *print(const json_t *a, gs_fleet_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    gs_fleet_print(out, a, fmt);
    fclose(out);
    return buf;
}

static void test_printers(void **state)
{
    (void)state;
    fleet f = {0};
    clean_six(&f);
    add(&f, doc("H100|<b>", "node7", "GPU-7", "0.1.0", 25165824, 262.0, 0.3));
    add(&f, doc("H100|<b>", "node8", "GPU-8", "0.1.0", 25165824, 262.0, 0.3));
    add(&f, doc("H100|<b>", "node9", "GPU-9", "0.1.0", 25165824, 262.0, 0.3));
    f.in[1].doc = NULL; /* node2 unreadable */
    f.in[1].why = "not a gpusonar/1 result document";
    json_decref(f.docs[2]); /* node3 planted: half the L2 */
    f.docs[2] = doc("H100", "node3", "GPU-3", "0.1.0", 25165824, 262.0, 0.3);
    f.in[2].doc = f.docs[2];
    json_t *a = analyse(&f);
    assert_int_equal(gs_fleet_outlier_count(a), 1);

    char *text = print(a, GS_FLEET_TEXT);
    assert_non_null(strstr(text, "1 outlier"));
    assert_non_null(strstr(text, "node3 GPU-3  cache:l2.size_bytes = 24 MiB (median 48 MiB; -50.0 % from the median, robust z -4.0)"));
    free(text);

    char *md = print(a, GS_FLEET_MARKDOWN);
    assert_non_null(strstr(md, "| **node3** | GPU-3 | H100 | cache:l2.size\\_bytes | **24 MiB** | 48 MiB | -50.0 % from the median, robust z -4.0 |"));
    assert_non_null(strstr(md, "## H100\\|\\<b\\> (compute capability 9.0): 3 GPUs"));
    assert_null(strstr(md, "<b>"));   /* a device name cannot open a tag in the page */
    assert_non_null(strstr(md, "- doc1.json: not a gpusonar/1 result document"));
    free(md);

    char *csv = print(a, GS_FLEET_CSV);
    assert_non_null(strstr(csv, "\"outlier\",\"H100\",\"9.0\",\"cache:l2.size_bytes\",\"B\",5,"
                                "50331648,0,25165824,50331648,\"node3\",\"GPU-3\",25165824,-0.5,-3.98942"));
    free(csv);

    char *js = print(a, GS_FLEET_JSON);
    json_error_t je;
    json_t *back = json_loads(js, 0, &je);
    assert_non_null(back);
    assert_string_equal(json_string_value(json_object_get(back, "schema")), GS_FLEET_SCHEMA);
    json_decref(back);
    free(js);
    gs_fleet_format fmt;
    assert_int_equal(gs_fleet_format_parse("markdown", &fmt), 0);
    assert_int_equal(fmt, GS_FLEET_MARKDOWN);
    assert_int_equal(gs_fleet_format_parse("html", &fmt), -1);
    release(&f, a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_mad),
        cmocka_unit_test(test_clean_fleet_has_no_outlier),
        cmocka_unit_test(test_planted_outlier_is_flagged_alone),
        cmocka_unit_test(test_slow_latency_is_flagged),
        cmocka_unit_test(test_floors_hold_back_small_and_uncertain),
        cmocka_unit_test(test_bimodal_and_small_groups),
        cmocka_unit_test(test_not_judged),
        cmocka_unit_test(test_models_are_grouped_not_compared),
        cmocka_unit_test(test_too_few_gpus_are_not_judged),
        cmocka_unit_test(test_many_records_in_linear_time),
        cmocka_unit_test(test_other_versions_and_invalid_are_listed),
        cmocka_unit_test(test_printers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
