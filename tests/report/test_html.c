/* Unit tests of the HTML report (src/report/html.c, html_plot.c, html_charts.c, html_diagram.c):
 * the escaper, a page made from a document (header, simulated banner, environment record, the
 * hierarchy diagram, figures, "not determined", failed records, warnings, a chart per series with
 * binary-unit log axes), the staircase with its Eq. 6 fit, fits and intervals drawn onto their
 * series, a hostile document whose strings try to inject elements and attributes, and series
 * whose numbers try to break the plot. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gs_test.h"
#include "report/html.h"
#include "report/report.h"

static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    gs_html_escape(out, s);
    fclose(out);
    return buf;
}

static char *html_of(const char *json_text)
{
    json_error_t jerr;
    json_t *doc = json_loads(json_text, 0, &jerr);
    if (!doc)
        fail_msg("bad test JSON at line %d: %s", jerr.line, jerr.text);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(gs_report_html(out, doc, &err), 0);
    fclose(out);
    json_decref(doc);
    return buf;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        n++;
    return n;
}

static void test_escape(void **state)
{
    (void)state;
    char *s = escaped("a&b<c>d\"e'f");
    assert_string_equal(s, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    free(s);
    s = escaped("</svg><script>alert(1)</script>");
    assert_string_equal(s, "&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    free(s);
    s = escaped("bell\a tab\t λ del\x7f");
    assert_string_equal(s, "bell&#xFFFD; tab\t λ del&#xFFFD;");
    free(s);
    s = escaped(NULL);
    assert_string_equal(s, "");
    free(s);
}

#define FIG(v, u, ci, n) \
    "{\"value\": " v ", \"unit\": \"" u "\", \"ci95\": " ci ", \"n\": " n ", \"method\": \"m-" u "\"}"

static const char *doc_text =
    "{\"schema\": \"gpusonar/1\", \"tool\": {\"name\": \"gpusonar\", \"version\": \"0.1.0\","
    " \"commit\": \"abc123\"}, \"command_line\": [\"gpusonar\", \"run\", \"cache\", \"a b\"],"
    " \"time_utc\": \"2025-01-02T03:04:05Z\", \"complete\": false,"
    " \"incomplete_reason\": \"interrupted by Ctrl-C\","
    " \"device\": {\"name\": \"GeForce GTX 560 Ti (simulated fermi model)\", \"backend\": \"sim\","
    "   \"model\": \"fermi\", \"simulated\": true, \"sm_count\": 8},"
    " \"environment\": {\"driver_version\": \"550.54\", \"temperature_c\": {\"start\": 41,"
    "   \"end\": 44.5}, \"throttle_reasons\": [\"none\"], \"other_processes\": [{\"pid\": 77,"
    "   \"name\": \"python\"}], \"uuid\": null, \"throttled\": true, \"shared\": false},"
    " \"probes\": ["
    "  {\"name\": \"cache\", \"params\": {\"level\": \"l1\"}, \"status\": \"ok\","
    "   \"elapsed_s\": 1.25, \"clock_khz_before\": 1645000, \"clock_khz_after\": 1600000,"
    "   \"warnings\": [\"SM clock moved by 3%\"], \"figures\": {"
    "     \"size_bytes\": " FIG("16384", "B", "0", "1") ","
    "     \"hit_latency_cycles\": " FIG("33.25", "cycles", "0.4", "12") ","
    "     \"near_size_bytes\": " FIG("23628160", "B", "996722", "4") ","
    "     \"sets\": {\"value\": null, \"unit\": \"\", \"ci95\": null, \"n\": 0,"
    "        \"method\": \"index bits\", \"reason\": \"the trace buffer is too small\"}},"
    "   \"series\": {\"average_sweep\": {\"x_label\": \"footprint\", \"x_unit\": \"B\","
    "     \"y_label\": \"average latency\", \"y_unit\": \"cycles\","
    "     \"x\": [1024, 4096, 16384, 65536, 262144], \"y\": [30, 30, null, 90, 95]}}},"
    "  {\"name\": \"clock\", \"params\": {}, \"status\": \"failed\", \"message\": \"launch failed\","
    "   \"warnings\": [], \"figures\": {}, \"series\": {"
    "     \"frequency\": {\"x_label\": \"window\", \"x_unit\": \"\", \"y_label\": \"sm_clock\","
    "       \"y_unit\": \"kHz\", \"x\": [0, 1, 2, 3], \"y\": [1.5e6, 1.6e6, 1.6e6, 1.7e6]},"
    "     \"empty\": {\"x_label\": \"x\", \"x_unit\": \"\", \"y_label\": \"y\", \"y_unit\": \"\","
    "       \"x\": [], \"y\": []}}}"
    " ]}";

static void test_page(void **state)
{
    (void)state;
    char *h = html_of(doc_text);
    assert_non_null(strstr(h, "<!DOCTYPE html>"));
    assert_non_null(strstr(h, "<h1>gpusonar report: GeForce GTX 560 Ti (simulated fermi model)"));
    assert_non_null(strstr(h, "id=\"simulated\">SIMULATED: model fermi"));
    assert_non_null(strstr(h, "INCOMPLETE: interrupted by Ctrl-C"));
    assert_non_null(strstr(h, "<code>gpusonar run cache &#39;a b&#39;</code>"));
    assert_non_null(strstr(h, "abc123"));
    assert_non_null(strstr(h, "id=\"throttled\">WARNING: the GPU throttled"));
    assert_null(strstr(h, "id=\"shared\""));
    /* The environment record, whatever its keys: nested objects, lists, null. */
    assert_non_null(strstr(h, "<th>driver_version</th><td>550.54</td>"));
    assert_non_null(strstr(h, "<th>end</th><td>44.5</td>"));
    assert_non_null(strstr(h, "<th>throttle_reasons</th><td>none</td>"));
    assert_non_null(strstr(h, "<th>pid</th><td>77</td>"));
    /* The summary, then every record with its level, figures, intervals and methods. */
    assert_non_null(strstr(h, "Caches (after Table 4 of Mei et al."));
    assert_non_null(strstr(h, "<h2>cache (l1)</h2>"));
    assert_non_null(strstr(h, "<td class=\"name\">size_bytes</td><td class=\"value\">16 KiB</td>"
                              "<td class=\"ci95\">&#177;0</td><td class=\"n\">1</td>"));
    assert_non_null(strstr(h, "33.25 cycles</td><td class=\"ci95\">&#177;0.40 cycles</td>"
                              "<td class=\"n\">12</td><td class=\"method\">m-cycles</td>"));
    assert_non_null(strstr(h, "<td class=\"method\">m-cycles</td>"));
    /* An interval reads in its value's unit (22.53 MiB: MiB), not in bytes nor in its own. */
    assert_non_null(strstr(h, "<td class=\"ci95\">&#177;0.95 MiB</td>"));
    assert_non_null(strstr(h, "class=\"value nd\">not determined: the trace buffer is too small"));
    assert_non_null(strstr(h, "SM clock 1645 MHz before, 1600 MHz after"));
    assert_non_null(strstr(h, "<li>warning: SM clock moved by 3%</li>"));
    assert_non_null(strstr(h, "<span class=\"status failed\">failed</span>"));
    assert_non_null(strstr(h, "<p class=\"message\">launch failed</p>"));
    assert_int_equal(count(h, "<table class=\"figures\">"), 2);
    /* One plot per series: the byte sweep on a log axis with binary ticks, a null point breaking
     * the line, the clock on a linear axis, the empty series said so; the staircase (the cache's
     * sweep, there being no random walk) first; the hierarchy diagram with the L1's size. */
    assert_int_equal(count(h, "<svg class=\"plot\""), 4);
    assert_int_equal(count(h, "</svg>"), 5);
    assert_non_null(strstr(h, "<svg class=\"diagram\" id=\"hierarchy\""));
    assert_non_null(strstr(h, "<text x=\"25.0\" y=\"146.0\">size 16 KiB</text>"));
    assert_non_null(strstr(h, "id=\"chart-staircase\" data-xscale=\"log2\""));
    assert_non_null(strstr(h, "<p class=\"missing\" id=\"chart-roofline\">"));
    assert_true(strstr(h, "id=\"hierarchy\"") < strstr(h, "id=\"chart-staircase\""));
    assert_true(strstr(h, "id=\"chart-staircase\"") < strstr(h, "<section id=\"summary\""));
    assert_non_null(strstr(h, "id=\"plot-0-0\" data-xscale=\"log2\""));
    assert_non_null(strstr(h, ">256 KiB</text>"));
    assert_null(strstr(h, " KB</text>"));
    assert_non_null(strstr(h, "<title>cache (l1): average_sweep</title>"));
    assert_int_equal(count(h, "<circle class=\"point\""), 4 + 4 + 4);
    assert_non_null(strstr(h, "id=\"plot-1-0\" data-xscale=\"linear\""));
    assert_non_null(strstr(h, "id=\"plot-1-1\""));
    assert_non_null(strstr(h, ">no data points</text>"));
    /* Self-contained: nothing loaded from anywhere, no script. */
    assert_null(strstr(h, "src="));
    assert_null(strstr(h, "url("));
    assert_null(strstr(h, "http:"));
    assert_null(strstr(h, "https:"));
    assert_null(strstr(h, "<script"));
    assert_int_equal(count(h, "href=\""), count(h, "href=\"#"));
    free(h);
}

/* The line of a plot path is broken at the null point: two "M" moves. */
static void test_null_breaks_line(void **state)
{
    (void)state;
    char *h = html_of(doc_text);
    const char *path = strstr(h, "<svg class=\"plot\" id=\"plot-0-0\"");
    assert_non_null(path);
    path = strstr(strstr(path, "<path class=\"line\""), " d=\"");
    assert_non_null(path);
    const char *end = strstr(path, "\"/>");
    size_t moves = 0;
    for (const char *c = path; c < end; c++)
        moves += *c == 'M';
    assert_int_equal(moves, 2);
    free(h);
}

#define HOSTILE "<script>alert(1)</script>\\\"onmouseover=alert(2) x='</svg><img src=x>&amp;"

static const char *hostile_text =
    "{\"schema\": \"gpusonar/1\", \"tool\": {\"version\": \"" HOSTILE "\", \"commit\": \"" HOSTILE
    "\"}, \"command_line\": [\"" HOSTILE "\"], \"time_utc\": \"" HOSTILE "\", \"complete\": false,"
    " \"incomplete_reason\": \"" HOSTILE "\", \"device\": {\"name\": \"" HOSTILE "\", \"backend\": \""
    HOSTILE "\", \"model\": \"" HOSTILE "\", \"simulated\": true},"
    " \"environment\": {\"" HOSTILE "\": [\"" HOSTILE "\", {\"" HOSTILE "\": \"" HOSTILE "\"}]},"
    " \"probes\": [{\"name\": \"" HOSTILE "\", \"status\": \"" HOSTILE "\", \"message\": \"" HOSTILE
    "\", \"params\": {\"level\": \"" HOSTILE "\"}, \"warnings\": [\"" HOSTILE "\"],"
    " \"figures\": {\"" HOSTILE "\": {\"value\": null, \"unit\": \"" HOSTILE "\", \"method\": \""
    HOSTILE "\", \"reason\": \"" HOSTILE "\"}, \"t\": {\"value\": \"" HOSTILE "\", \"n\": 1},"
    " \"c\": {\"value\": 3, \"unit\": \"" HOSTILE "\", \"ci95\": 0.5, \"n\": 4, \"method\": \"m\"}},"
    " \"series\": {\"" HOSTILE "\": {\"x_label\": \"" HOSTILE "\", \"x_unit\": \"" HOSTILE "\","
    " \"y_label\": \"" HOSTILE "\", \"y_unit\": \"" HOSTILE "\", \"x\": [1, 2], \"y\": [3, 4]}}}]}";

static void test_hostile_document(void **state)
{
    (void)state;
    char *h = html_of(hostile_text);
    assert_null(strstr(h, "<script"));
    assert_null(strstr(h, "<img"));
    assert_null(strstr(h, "\"onmouseover"));
    assert_null(strstr(h, "'</svg>"));
    assert_null(strstr(h, "x='"));
    /* Exactly the page's own SVG (the diagram and the series' plot), balanced. */
    assert_int_equal(count(h, "<svg"), 2);
    assert_int_equal(count(h, "</svg>"), 2);
    /* The text is still there for the reader, escaped (& as well: &amp;amp;). */
    assert_non_null(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=alert(2) "
                              "x=&#39;&lt;/svg&gt;&lt;img src=x&gt;&amp;amp;"));
    free(h);
}

/* Numbers that would make NaN or infinite coordinates, strings in place of numbers, one point,
 * all values equal: every coordinate written is a finite number. */
static void test_hostile_numbers(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": [{\"name\": \"p\","
        " \"figures\": {}, \"series\": {"
        "  \"wide\": {\"x\": [0, 1], \"y\": [-1.7e308, 1.7e308]},"
        "  \"mixed\": {\"x\": [\"1\", null, 2, 3, true], \"y\": [1, 2, 5, null, 4]},"
        "  \"one\": {\"x\": [5], \"y\": [7]},"
        "  \"flat\": {\"x\": [1e-300, 1e300], \"y\": [0, 0]},"
        "  \"short\": {\"x\": [1, 2, 3], \"y\": [1]},"
        "  \"notaseries\": 3}}]}");
    assert_int_equal(count(h, "<svg class=\"plot\""), 6);
    assert_int_equal(count(h, "</svg>"), 6 + 1);
    assert_non_null(strstr(h, ">values too far apart to plot</text>"));
    assert_null(strstr(h, "nan"));
    assert_null(strstr(h, "inf"));
    assert_null(strstr(h, "NaN"));
    assert_null(strstr(h, "INF"));
    assert_non_null(strstr(h, "data-xscale=\"log2\""));   /* the 1e-300 .. 1e300 series */
    free(h);
}

/* A y axis starts at zero when no value is negative (a clock of 1980000 kHz varying by 0.02 is
 * flat, not a staircase of noise) and kHz read as MHz; with a negative value it reaches below. */
static void test_axis_from_zero(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": [{\"name\": \"p\","
        " \"figures\": {}, \"series\": {\"f\": {\"y_label\": \"clock\", \"y_unit\": \"kHz\","
        " \"x\": [0, 1, 2], \"y\": [1980000, 1980000.02, 1980000.01]},"
        " \"g\": {\"x\": [0, 1], \"y\": [-5, 5]}}}]}");
    const char *f = strstr(h, "id=\"plot-0-0\""), *g = strstr(h, "id=\"plot-0-1\"");
    assert_non_null(f);
    assert_non_null(g);
    assert_non_null(strstr(f, "text-anchor=\"end\">0</text>"));
    assert_true(strstr(f, "text-anchor=\"end\">0</text>") < g);
    assert_non_null(strstr(f, "clock [MHz]</text>"));
    assert_true(strstr(f, "text-anchor=\"end\">2000</text>") < g);
    assert_null(strstr(h, "1980000.01</text>"));
    assert_non_null(strstr(g, "text-anchor=\"end\">-5</text>"));
    free(h);
}

/* An Eq. 6 fit whose figures would give no finite curve (a capacity of 0, latencies at the
 * ends of the doubles, a huge sharpness) draws only finite points, or none. */
static void test_hostile_fit(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": ["
        " {\"name\": \"random-walk\", \"figures\": {"
        "  \"global_latencies_cycles\": {\"value\": [1.7e308, -1.7e308, 5]},"
        "  \"global_capacities_bytes\": {\"value\": [0, -4]},"
        "  \"global_step_sharpness\": {\"value\": [1e308, -3]}},"
        "  \"series\": {\"global_walk\": {\"x_unit\": \"B\", \"x\": [1, 1e300],"
        "   \"y\": [1, 2]}}}]}");
    assert_non_null(strstr(h, "id=\"chart-staircase\""));
    assert_null(strstr(h, "nan"));
    assert_null(strstr(h, "inf"));
    assert_null(strstr(h, "NaN"));
    free(h);
}

/* The diagram's L2 shows the l2-partitions record's latencies and share of far lines; a level
 * without a record says "not measured", a figure without a value "not determined" with its
 * reason as the tooltip. */
static void test_diagram_partitions(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": ["
        " {\"name\": \"l2-partitions\", \"figures\": {"
        "  \"l2_near_latency_cycles\": {\"value\": 463, \"unit\": \"cycles\"},"
        "  \"l2_far_latency_cycles\": {\"value\": 573.2, \"unit\": \"cycles\"},"
        "  \"l2_far_fraction\": {\"value\": null, \"reason\": \"<b>too few lines</b>\"}}}]}");
    const char *svg = strstr(h, "id=\"hierarchy\"");
    assert_non_null(svg);
    assert_non_null(strstr(svg, ">near hit 463 cycles</text>"));
    assert_non_null(strstr(svg, ">far hit 573 cycles</text>"));
    assert_non_null(strstr(svg, ">lines far not determined<title>&lt;b&gt;too few lines&lt;/b&gt;"
                                "</title></text>"));
    assert_non_null(strstr(svg, ">L1 data</text>"));
    assert_non_null(strstr(svg, ">size not measured</text>"));
    free(h);
}

/* A byte axis ticks at whole KiB (10 KiB, 20 KiB), not at decimal steps (9.77 KB). */
static void test_byte_ticks(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": [{\"name\": \"p\","
        " \"figures\": {}, \"series\": {\"f\": {\"y_unit\": \"B\", \"x\": [0, 1, 2],"
        " \"y\": [16384, 49152, 16384]}}}]}");
    assert_non_null(strstr(h, ">20 KiB</text>"));
    assert_non_null(strstr(h, ">40 KiB</text>"));
    assert_null(strstr(h, ".77 K"));
    free(h);
}

/* The random walk's staircase with its Eq. 6 curve (from the fit's figures) and the capacity
 * marked; a ci95 series drawn as error bars on its series and a fit series dashed on it, neither
 * as a plot of its own. */
static void test_staircase_and_overlays(void **state)
{
    (void)state;
    char *h = html_of(
        "{\"schema\": \"gpusonar/1\", \"complete\": true, \"probes\": ["
        " {\"name\": \"random-walk\", \"figures\": {"
        "  \"global_latencies_cycles\": {\"value\": [30, 300], \"unit\": \"cycles\"},"
        "  \"global_capacities_bytes\": {\"value\": [65536], \"unit\": \"B\"},"
        "  \"global_step_sharpness\": {\"value\": [8]}},"
        "  \"series\": {\"global_walk\": {\"x_label\": \"array\", \"x_unit\": \"B\","
        "   \"y_label\": \"latency\", \"y_unit\": \"cycles\","
        "   \"x\": [4096, 16384, 65536, 262144, 1048576], \"y\": [30, 30, 31, 290, 300]}}},"
        " {\"name\": \"smem-banks\", \"figures\": {\"banks\": {\"value\": 32},"
        "  \"bank_width_bytes\": {\"value\": 4}, \"latency_w4_stride1_cycles\": {\"value\": 20}},"
        "  \"series\": {"
        "  \"latency_w4\": {\"y_label\": \"latency\", \"x\": [1, 2, 3], \"y\": [20, 22, 24]},"
        "  \"latency_ci95_w4\": {\"y_label\": \"ci95\", \"x\": [1, 2, 3], \"y\": [1, 0, 2]},"
        "  \"fit_w4\": {\"y_label\": \"latency\", \"x\": [1, 2, 3], \"y\": [20, 22, 24]}}}]}");
    const char *stair = strstr(h, "id=\"chart-staircase\"");
    assert_non_null(stair);
    const char *end = strstr(stair, "</svg>");
    const char *fit = strstr(stair, "<path class=\"fit\"");
    assert_true(fit && fit < end);
    assert_true(strstr(stair, "level 1: 64 KiB") < end);
    /* The key bank chart: its conflict-free level marked, the bank figures said. */
    const char *banks = strstr(h, "id=\"chart-banks\"");
    assert_non_null(banks);
    assert_true(strstr(banks, "conflict-free, 4-byte words: 20 cycles") < strstr(banks, "</svg>"));
    assert_non_null(strstr(h, "<p class=\"levels\">32 banks of 4 B.</p>"));
    /* The banks' record: one plot, with two error bars (one half-width is 0) and a dashed fit. */
    const char *rec = strstr(h, "<section class=\"probe\" id=\"probe-1\"");
    assert_non_null(rec);
    assert_int_equal(count(rec, "<svg class=\"plot\""), 1);
    assert_int_equal(count(rec, "<path class=\"errorbar\""), 2);
    assert_int_equal(count(rec, "<path class=\"fit\""), 1);
    assert_non_null(strstr(rec, "id=\"plot-1-0\""));
    assert_null(strstr(rec, "id=\"plot-1-1\""));
    assert_null(strstr(rec, "id=\"plot-1-2\""));
    free(h);
}

static void test_not_a_document(void **state)
{
    (void)state;
    json_t *doc = json_array();
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(gs_report_html(stdout, doc, &err), GS_ERR_INPUT);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_null_breaks_line),
        cmocka_unit_test(test_hostile_document),
        cmocka_unit_test(test_hostile_numbers),
        cmocka_unit_test(test_axis_from_zero),
        cmocka_unit_test(test_staircase_and_overlays),
        cmocka_unit_test(test_hostile_fit),
        cmocka_unit_test(test_diagram_partitions),
        cmocka_unit_test(test_byte_ticks),
        cmocka_unit_test(test_not_a_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
