/* Unit tests of the one-page summary (src/report/summary.c): it is printed from a result document
 * alone, so each test builds a document and reads the text back. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gs_test.h"
#include "report/report.h"

static char *summary_of(const char *json_text)
{
    json_error_t jerr;
    json_t *doc = json_loads(json_text, 0, &jerr);
    assert_non_null(doc);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    gs_report_summary(out, doc);
    fclose(out);
    json_decref(doc);
    return buf;
}

/* The line of text that contains key (for row checks), copied into line. */
static void line_with(const char *text, const char *key, char *line, size_t len)
{
    const char *at = strstr(text, key);
    assert_non_null(at);
    while (at > text && at[-1] != '\n')
        at--;
    size_t n = strcspn(at, "\n");
    snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), at);
}

#define FIG(v, u) \
    "{\"value\": " v ", \"unit\": \"" u "\", \"ci95\": 0, \"n\": 1, \"method\": \"m\"}"
#define ND "{\"value\": null, \"unit\": \"\", \"reason\": \"why\"}"

static const char *full_doc =
    "{\"schema\": \"gpusonar/1\", \"probes\": ["
    " {\"name\": \"pipeline\", \"params\": {}, \"figures\": {"
    "   \"ffma_ilp1_gops\": " FIG("249", "Gop/s") ", \"ffma_ilp2_gops\": " FIG("363", "Gop/s") ","
    "   \"ffma_ilp4_gops\": " FIG("388", "Gop/s") ","
    "   \"ffma_ilp1_lambda_cycles\": " FIG("0.43", "c") ","
    "   \"ffma_ilp1_Lambda_cycles\": " FIG("9.1", "c") ","
    "   \"ffma_ilp1_ridge_warps\": " FIG("48", "w")
    " }},"
    " {\"name\": \"roofline\", \"params\": {}, \"figures\": {"
    "   \"ffma_ilp1_ridge_warps\": " FIG("47", "w") "}},"
    " {\"name\": \"bandwidth\", \"params\": {}, \"figures\": {"
    "   \"copy_16B_constant_gbps\": " FIG("2991.5", "GB/s") ", \"copy_16B_dynamic_gbps\": "
    FIG("2800", "GB/s") ", \"copy_16B_lambda_cycles\": " FIG("37.7", "cycles") ","
    "   \"copy_1B_constant_gbps\": " ND ","
    "   \"memcpy_d2d_gbps\": " FIG("2876", "GB/s") ", \"copy_over_memcpy\": " FIG("1.04", "") ","
    "   \"best_copy_config\": {\"value\": \"copy, 16-byte elements, constant loop bound, 256 threads per block\", \"n\": 1, \"method\": \"m\"},"
    "   \"h2d_gbps\": " FIG("52", "GB/s") ", \"d2h_gbps\": " FIG("50", "GB/s") "}},"
    " {\"name\": \"random-walk\", \"params\": {}, \"figures\": {"
    "   \"global_latencies_cycles\": " FIG("[34, 246.1, 544.2]", "cycles") ","
    "   \"global_capacities_bytes\": " FIG("[196608, 52428800]", "B") ","
    "   \"constant_latencies_cycles\": " FIG("[25, 61, 200]", "cycles") ","
    "   \"constant_capacities_bytes\": " FIG("[2048, 32768]", "B") ","
    "   \"shared_latencies_cycles\": " FIG("[30]", "cycles") ","
    "   \"shared_capacities_bytes\": " ND ","
    "   \"walkers_saturation\": " FIG("4096", "warps") "}},"
    " {\"name\": \"cache\", \"params\": {\"level\": \"l1\"}, \"figures\": {"
    "   \"size_bytes\": " FIG("196608", "B") ", \"line_bytes\": " FIG("128", "B") ","
    "   \"fetch_bytes\": " FIG("64", "B") ", \"sector_bytes\": " ND ","
    "   \"sets\": " FIG("192", "") ", \"ways\": " FIG("8", "") ","
    "   \"policy\": {\"value\": \"lru\", \"n\": 1, \"method\": \"m\"},"
    "   \"hit_latency_cycles\": " FIG("33", "cycles") "}},"
    " {\"name\": \"cache\", \"params\": {\"level\": \"l1tlb\"}, \"figures\": {"
    "   \"size_bytes\": " FIG("33554432", "B") ", \"coverage_bytes\": " FIG("2097152", "B") ","
    "   \"ways_per_set\": " FIG("[17, 8, 8]", "") ", \"sets\": " ND "}}"
    "]}";

static void test_table_iii_rows(void **state)
{
    (void)state;
    char *text = summary_of(full_doc), line[256];
    line_with(text, "  ffma", line, sizeof line);
    assert_non_null(strstr(line, "249/363/388"));
    assert_non_null(strstr(line, "0.43"));
    assert_non_null(strstr(line, "9.1 "));
    assert_non_null(strstr(line, " 48"));             /* the first record's ridge, not 48/47 */
    assert_null(strstr(line, "48/47"));
    line_with(text, "  16B", line, sizeof line);
    assert_non_null(strstr(line, "2992/2800"));
    assert_non_null(strstr(line, "37.7"));
    line_with(text, "  1B ", line, sizeof line);
    assert_non_null(strstr(line, "nd/-"));           /* not "n/d/-": one value, not two */
    assert_null(strstr(line, "n/d/"));
    line_with(text, "  4B ", line, sizeof line);       /* the global walk sits on the 4 B row */
    assert_non_null(strstr(line, "34/246/544"));
    assert_non_null(strstr(line, "192 KiB/50 MiB"));
    assert_non_null(strstr(text, "best copy kernel / memcpy = 1.04\n"));
    /* A long word cell on a line of its own, whole: never cut inside a word. */
    assert_non_null(strstr(text, "best copy kernel: copy, 16-byte elements, constant loop bound, "
                              "256 threads per block\n"));
    /* λ and Λ are named by more than their case. */
    line_with(text, "  itype", line, sizeof line);
    assert_non_null(strstr(line, "issue λ"));
    assert_non_null(strstr(line, "completion Λ"));
    line_with(text, "  Element", line, sizeof line);
    assert_non_null(strstr(line, "issue λ"));
    assert_non_null(strstr(line, "completion Λ"));
    assert_non_null(strstr(text, "host-to-device 52 GB/s, device-to-host 50 GB/s"));
    assert_non_null(strstr(text, "4096 warps"));
    line_with(text, "Constant memory", line, sizeof line);
    const char *constant = strstr(text, "Constant memory");
    line_with(constant, "  4B", line, sizeof line);
    assert_non_null(strstr(line, "25/61/200"));
    assert_non_null(strstr(line, "2 KiB/32 KiB"));
    free(text);
}

static void test_cache_table(void **state)
{
    (void)state;
    char *text = summary_of(full_doc), line[256];
    line_with(text, "  Parameter", line, sizeof line);
    assert_non_null(strstr(line, "l1 "));
    assert_non_null(strstr(line, "l1tlb"));
    line_with(text, "N (size)", line, sizeof line);
    assert_non_null(strstr(line, "192 KiB"));
    assert_non_null(strstr(line, "32 MiB"));
    line_with(text, "b (line)", line, sizeof line);
    assert_non_null(strstr(line, "128 B"));
    assert_non_null(strstr(line, "2 MiB"));             /* a TLB's coverage in the line row */
    line_with(text, "  sector", line, sizeof line);   /* not determined: never the fetch */
    assert_non_null(strstr(line, "n/d"));
    line_with(text, "  fetch (miss)", line, sizeof line);
    assert_non_null(strstr(line, "64 B"));
    line_with(text, "a (sets)", line, sizeof line);
    assert_non_null(strstr(line, "n/d"));
    line_with(text, "  ways", line, sizeof line);
    assert_non_null(strstr(line, "17/8/8"));
    line_with(text, "  policy", line, sizeof line);
    assert_non_null(strstr(line, "lru"));
    assert_null(strstr(text, "  page"));              /* no record has it: no row */
    assert_non_null(strstr(text, "capacities 192 KiB/50 MiB, latencies 34/246/544"));
    free(text);
}

static void test_empty_document(void **state)
{
    (void)state;
    char *text = summary_of("{\"schema\": \"gpusonar/1\", \"probes\": []}");
    assert_non_null(strstr(text, "(no instruction-type figures in this document)"));
    assert_non_null(strstr(text, "(no cache records in this document)"));
    char line[256];
    line_with(text, "  16B", line, sizeof line);
    assert_non_null(strstr(line, "-/-"));
    free(text);
    text = summary_of("{}");
    assert_non_null(strstr(text, "Caches"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_iii_rows),
        cmocka_unit_test(test_cache_table),
        cmocka_unit_test(test_empty_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
