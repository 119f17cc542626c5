/* Tests of the verdicts of `gpusonar verify` (src/report/verify.c, verify_print.c) on a synthetic
 * result document and truth: exact numbers, strings and lists; a latency within the relative
 * tolerance or the model's noise, and one beyond both (wrong); a wrong structure figure; way
 * shares within 0.05; a figure the probe left null or did not report and a record it did not
 * write (not determined, never wrong); a level the model does not have (null truth); the
 * --tolerance override; a malformed truth; the table's count line and the JSON rows; each
 * tolerance stated with its reason, the model's noise and no more for a noisy latency, 0.1 % for
 * one without noise, a figure's own interval said as such. */
#include "gs_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/verify.h"

static const char *const doc_text =
    "{\"schema\":\"gpusonar/1\",\"probes\":["
    "{\"name\":\"cache\",\"params\":{\"level\":\"l1\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":16384.0},\"sets\":{\"value\":32},\"ways\":{\"value\":8},"
    "  \"mapping\":{\"value\":[7,8,9,10,11]},\"policy\":{\"value\":\"lru\"},"
    "  \"line_bytes\":{\"value\":null,\"reason\":\"trace too short\"},"
    "  \"hit_latency_cycles\":{\"value\":31.2},"
    "  \"way_probabilities\":{\"value\":[0.52,0.48]}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"l2\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":524288},\"hit_latency_cycles\":{\"value\":230}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"ro\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":null,\"reason\":\"none found\"}}},"
    "{\"name\":\"clock\",\"params\":{},\"figures\":{\"sm_clock_khz\":{\"value\":1005000}}}"
    "]}";

static const char *const truth_text =
    "{\"model\":\"synthetic\",\"records\":{"
    "\"cache:l1\":{"
    "  \"size_bytes\":{\"value\":16384,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"sets\":{\"value\":32,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"ways\":{\"value\":4,\"kind\":\"structure\",\"noise\":0,\"from\":\"caches[0]\"},"
    "  \"mapping\":{\"value\":[7,8,9,10,11],\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"policy\":{\"value\":\"lru\",\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"line_bytes\":{\"value\":128,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"sector_bytes\":{\"value\":32,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
    "  \"hit_latency_cycles\":{\"value\":30,\"kind\":\"latency\",\"noise\":2,\"from\":\"a\"},"
    "  \"way_probabilities\":{\"value\":[0.5,0.5],\"kind\":\"probability\",\"noise\":0,"
    "                          \"from\":\"a\"}},"
    "\"cache:l2\":{"
    "  \"size_bytes\":{\"value\":524288,\"kind\":\"structure\",\"noise\":0,\"from\":\"b\"},"
    "  \"hit_latency_cycles\":{\"value\":200,\"kind\":\"latency\",\"noise\":2,\"from\":\"b\"}},"
    "\"cache:ro\":{\"size_bytes\":{\"value\":null,\"kind\":\"structure\",\"noise\":0,"
    "                             \"from\":\"none\"}},"
    "\"smem-banks\":{\"banks\":{\"value\":32,\"kind\":\"structure\",\"noise\":0,\"from\":\"c\"}},"
    "\"clock\":{\"sm_clock_khz\":{\"value\":1000000,\"kind\":\"clock\",\"noise\":0,"
    "                            \"from\":\"d\"}}"
    "}}";

static json_t *load(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j)
        fail_msg("test JSON: %s (line %d)", e.text, e.line);
    return j;
}

static const gs_verify_row *row(const gs_verify *v, const char *record, const char *figure)
{
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->rows[i].record, record) == 0 && strcmp(v->rows[i].figure, figure) == 0)
            return &v->rows[i];
    fail_msg("no row %s.%s", record, figure);
    return NULL;
}

static void run(gs_verify *v, double tolerance_percent)
{
    json_t *doc = load(doc_text), *truth = load(truth_text);
    gs_verify_opts opts = {tolerance_percent};
    gs_error err;
    assert_int_equal(gs_verify_compare(doc, truth, &opts, v, &err), 0);
    json_decref(doc);
    json_decref(truth);
}

static void verdicts_per_figure(void **state)
{
    (void)state;
    gs_verify v;
    run(&v, -1);
    assert_int_equal(v.count, 14);
    assert_int_equal(row(&v, "cache:l1", "size_bytes")->verdict, GS_VERDICT_EXACT);
    assert_int_equal(row(&v, "cache:l1", "mapping")->verdict, GS_VERDICT_EXACT);
    assert_int_equal(row(&v, "cache:l1", "policy")->verdict, GS_VERDICT_EXACT);
    /* 8 ways against 4: structure is exact or wrong */
    const gs_verify_row *w = row(&v, "cache:l1", "ways");
    assert_int_equal(w->verdict, GS_VERDICT_WRONG);
    assert_string_equal(w->note, "caches[0]");
    /* 31.2 against 30: beyond 5 % (1.5) but within the noise of 2 cycles */
    const gs_verify_row *h = row(&v, "cache:l1", "hit_latency_cycles");
    assert_int_equal(h->verdict, GS_VERDICT_WITHIN);
    assert_double_equal(h->tolerance, 2, 1e-12);
    /* 230 against 200: beyond 5 % (10) */
    assert_int_equal(row(&v, "cache:l2", "hit_latency_cycles")->verdict, GS_VERDICT_WRONG);
    assert_int_equal(row(&v, "cache:l1", "way_probabilities")->verdict, GS_VERDICT_WITHIN);
    /* null with a reason, and not reported at all: not determined, never wrong */
    const gs_verify_row *l = row(&v, "cache:l1", "line_bytes");
    assert_int_equal(l->verdict, GS_VERDICT_NOT_DETERMINED);
    assert_string_equal(l->note, "trace too short");
    assert_int_equal(row(&v, "cache:l1", "sector_bytes")->verdict, GS_VERDICT_NOT_DETERMINED);
    assert_int_equal(row(&v, "smem-banks", "banks")->verdict, GS_VERDICT_NOT_DETERMINED);
    assert_null(row(&v, "smem-banks", "banks")->inferred);
    /* no such level in the model, none found: exact */
    assert_int_equal(row(&v, "cache:ro", "size_bytes")->verdict, GS_VERDICT_EXACT);
    /* 1005000 kHz against 1000000: within 1 % */
    assert_int_equal(row(&v, "clock", "sm_clock_khz")->verdict, GS_VERDICT_WITHIN);
    assert_int_equal(v.counts[GS_VERDICT_EXACT], 6);
    assert_int_equal(v.counts[GS_VERDICT_WITHIN], 3);
    assert_int_equal(v.counts[GS_VERDICT_WRONG], 2);
    assert_int_equal(v.counts[GS_VERDICT_NOT_DETERMINED], 3);
    gs_verify_free(&v);
}

static void tolerance_option_widens_latencies_not_structure(void **state)
{
    (void)state;
    gs_verify v;
    run(&v, 20);
    assert_int_equal(row(&v, "cache:l2", "hit_latency_cycles")->verdict, GS_VERDICT_WITHIN);
    assert_int_equal(row(&v, "cache:l1", "ways")->verdict, GS_VERDICT_WRONG);
    gs_verify_free(&v);
    run(&v, 0);
    /* no relative tolerance left: the noise of 2 cycles still holds 31.2 against 30 */
    assert_int_equal(row(&v, "cache:l1", "hit_latency_cycles")->verdict, GS_VERDICT_WITHIN);
    assert_int_equal(row(&v, "clock", "sm_clock_khz")->verdict, GS_VERDICT_WRONG);
    gs_verify_free(&v);
}

static void wrong_types_and_found_phantom_level(void **state)
{
    (void)state;
    json_t *doc = load("{\"probes\":[{\"name\":\"cache\",\"params\":{\"level\":\"ro\"},"
                       "\"figures\":{\"size_bytes\":{\"value\":4096},"
                       "\"mapping\":{\"value\":\"hashed\"}}}]}");
    json_t *truth = load("{\"model\":\"m\",\"records\":{\"cache:ro\":{"
                         "\"size_bytes\":{\"value\":null,\"kind\":\"structure\"},"
                         "\"mapping\":{\"value\":[7,8],\"kind\":\"structure\"}}}}");
    gs_verify v;
    gs_error err;
    assert_int_equal(gs_verify_compare(doc, truth, NULL, &v, &err), 0);
    assert_int_equal(v.counts[GS_VERDICT_WRONG], 2);
    gs_verify_free(&v);
    json_decref(truth);
    truth = load("{\"model\":\"m\",\"records\":{\"cache:ro\":{\"size_bytes\":3}}}");
    assert_int_equal(gs_verify_compare(doc, truth, NULL, &v, &err), GS_ERR_INPUT);
    assert_non_null(strstr(err.msg, "cache:ro.size_bytes"));
    json_decref(truth);
    truth = load("{\"model\":\"m\"}");
    assert_int_equal(gs_verify_compare(doc, truth, NULL, &v, &err), GS_ERR_INPUT);
    json_decref(truth);
    json_decref(doc);
}

static void table_and_json(void **state)
{
    (void)state;
    gs_verify v;
    run(&v, -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_verify_print(f, &v, "synthetic", NULL);
    fclose(f);
    assert_non_null(strstr(buf, "14 figures: 6 exact, 3 within tolerance, 2 wrong, 3 not "
                                "determined"));
    assert_non_null(strstr(buf, "not determined: trace too short"));
    assert_non_null(strstr(buf, "[7,8,9,10,11]"));
    free(buf);
    json_t *j = gs_verify_json(&v, "synthetic");
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "counts"), "wrong")), 2);
    json_t *r0 = json_array_get(json_object_get(j, "rows"), 0);
    assert_string_equal(json_string_value(json_object_get(r0, "record")), "cache:l1");
    assert_string_equal(json_string_value(json_object_get(r0, "verdict")), "exact");
    json_decref(j);
    gs_verify_free(&v);
}

/* Each tolerance is stated with its reason and is what the method allows: a latency the model
 * adds noise to may read above the truth by that noise and no more (a 5 % allowance would hold
 * 208 against 200); a latency without noise in the model (an issue rate over thousands of
 * cycles) within 0.1 %; a size that states its own interval is within that interval, said so,
 * never "+-0"; an exact figure is called exact. */
static void tolerances_say_why(void **state)
{
    (void)state;
    json_t *doc = load(
        "{\"probes\":[{\"name\":\"cache\",\"params\":{\"level\":\"l2\"},\"figures\":{"
        "\"size_bytes\":{\"value\":50334592,\"unit\":\"B\",\"ci95\":468000},"
        "\"line_bytes\":{\"value\":128,\"unit\":\"B\",\"ci95\":0},"
        "\"hit_latency_cycles\":{\"value\":208,\"unit\":\"cycles\"},"
        "\"miss_penalty_cycles\":{\"value\":34,\"unit\":\"cycles\"}}},"
        "{\"name\":\"pipeline\",\"params\":{},\"figures\":{"
        "\"fadd_lambda_cycles\":{\"value\":0.2500125,\"unit\":\"cycles\"},"
        "\"ffma_lambda_cycles\":{\"value\":0.2512,\"unit\":\"cycles\"}}}]}");
    json_t *truth = load(
        "{\"model\":\"m\",\"records\":{\"cache:l2\":{"
        "\"size_bytes\":{\"value\":50331648,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
        "\"line_bytes\":{\"value\":128,\"kind\":\"structure\",\"noise\":0,\"from\":\"a\"},"
        "\"hit_latency_cycles\":{\"value\":200,\"kind\":\"latency\",\"noise\":2,\"from\":\"a\"},"
        "\"miss_penalty_cycles\":{\"value\":33,\"kind\":\"latency\",\"noise\":2,\"from\":\"a\"}},"
        "\"pipeline\":{"
        "\"fadd_lambda_cycles\":{\"value\":0.25,\"kind\":\"latency\",\"noise\":0,\"from\":\"p\"},"
        "\"ffma_lambda_cycles\":{\"value\":0.25,\"kind\":\"latency\",\"noise\":0,"
        "\"from\":\"p\"}}}}");
    gs_verify v;
    gs_error err;
    assert_int_equal(gs_verify_compare(doc, truth, NULL, &v, &err), 0);
    const gs_verify_row *r = row(&v, "cache:l2", "size_bytes");
    assert_int_equal(r->verdict, GS_VERDICT_WITHIN);
    assert_double_equal(r->tolerance, 468000, 1e-9);
    assert_non_null(strstr(r->why, "its own 95 % interval"));
    r = row(&v, "cache:l2", "line_bytes");
    assert_int_equal(r->verdict, GS_VERDICT_EXACT);
    assert_double_equal(r->tolerance, 0, 0);
    assert_int_equal(row(&v, "cache:l2", "hit_latency_cycles")->verdict, GS_VERDICT_WRONG);
    r = row(&v, "cache:l2", "miss_penalty_cycles");
    assert_int_equal(r->verdict, GS_VERDICT_WITHIN);
    assert_double_equal(r->tolerance, 2, 1e-12);
    assert_non_null(strstr(r->why, "the model's noise"));
    assert_int_equal(row(&v, "pipeline", "fadd_lambda_cycles")->verdict, GS_VERDICT_WITHIN);
    assert_int_equal(row(&v, "pipeline", "ffma_lambda_cycles")->verdict, GS_VERDICT_WRONG);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_verify_print(f, &v, "m", NULL);
    fclose(f);
    assert_null(strstr(buf, "+-0)"));
    assert_null(strstr(buf, "+-0:"));
    assert_non_null(strstr(buf, "within tolerance +-457 KiB: its own 95 % interval"));
    assert_non_null(strstr(buf, "within tolerance +-2 cycles: the model's noise, which adds 0 to "
                                "2 cycles to each timed load"));
    assert_non_null(strstr(buf, "0.00025 cycles: 0.1 % of the truth"));
    free(buf);
    json_t *j = gs_verify_json(&v, "m");
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_array_get(json_object_get(j, "rows"), 0), "tolerance_why")),
                           "interval"));
    json_decref(j);
    gs_verify_free(&v);
    json_decref(doc);
    json_decref(truth);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdicts_per_figure),
        cmocka_unit_test(tolerance_option_widens_latencies_not_structure),
        cmocka_unit_test(wrong_types_and_found_phantom_level),
        cmocka_unit_test(table_and_json),
        cmocka_unit_test(tolerances_say_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
