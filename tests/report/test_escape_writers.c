/* The escaping rules (src/util/escape.h) as each writer applies them to a document whose strings
 * carry newlines, terminal escapes, formula starts and pipes: the text, markdown and CSV
 * reports, compare and fleet in every format show them as visible escapes, never raw; no CSV
 * cell starts a formula; no markdown cell is split. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "report/fleet.h"
#include "report/report.h"

static const char doc_text[] =
    "{\"schema\": \"gpusonar/1\", \"tool\": {\"name\": \"gpusonar\", \"version\": \"1\\u001b[31"
    "m\", \"commit\": \"c\"}, \"command_line\": [\"gpusonar\", \"run\\u001b[2J\"], \"time_utc\""
    ": \"2026-11-28T00:00:00Z\", \"complete\": false, \"incomplete_reason\": \"stop\\n-fake lin"
    "e\\u001b[2J\", \"device\": {\"backend\": \"sim\", \"model\": \"m\\u202e\\u009b1m\", \"simu"
    "lated\": true, \"compute_capability\": \"9.0\", \"sm_count\": 1, \"name\": \"x\\n-visualiz"
    "er_outputfile /home/victim/.bashrc\\n#\"}, \"probes\": [{\"name\": \"cache\", \"status\": "
    "\"ok\", \"params\": {\"level\": \"l1|x\\n\"}, \"message\": \"m\\u0007\", \"warnings\": [\""
    "w\\u001b]0;t\\u0007\"], \"figures\": {\"=HYPERLINK(\\\"http://x\\\")\": {\"value\": \"@SUM"
    "(A1)\\n\", \"unit\": \"+u\", \"ci95\": null, \"n\": 1, \"method\": \"-cmd|x\"}, \"size_byt"
    "es\": {\"value\": null, \"unit\": \"B\", \"ci95\": null, \"n\": 0, \"method\": \"\\tm\", "
    "\"reason\": \"r\\n-dram_latency 1\"}, \"delta\": {\"value\": -3.5, \"unit\": \"cycles\", "
    "\"ci95\": 0.5, \"n\": 3, \"method\": \"m\"}}, \"series\": {}}]}";

static json_t *load(void)
{
    json_t *doc = NULL;
    gs_error err;
    if (gs_report_load_buffer(doc_text, strlen(doc_text), "t.json", &doc, &err) != 0)
        fail_msg("%s", err.msg);
    return doc;
}

/* No control character but the newline, no C1 control, no bidirectional override; no line of
 * the document's own ("-fake line", "-visualizer..."). */
static void assert_clean(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            fail_msg("raw control 0x%02x at %zu in:\n%s", c, i, text);
        if (c == 0xc2 && (unsigned char)text[i + 1] == 0x9b)
            fail_msg("raw CSI at %zu", i);
        if (c == 0xe2 && (unsigned char)text[i + 1] == 0x80 && (unsigned char)text[i + 2] == 0xae)
            fail_msg("raw bidirectional override at %zu", i);
    }
    assert_null(strstr(text, "\n-fake line"));
    assert_null(strstr(text, "\n-visualizer"));
    assert_null(strstr(text, "\n-dram_latency"));
}

typedef struct out {
    char *text;
    size_t len;
    FILE *f;
} out;

static FILE *open_out(out *o)
{
    o->f = open_memstream(&o->text, &o->len);
    assert_non_null(o->f);
    return o->f;
}

static void close_out(out *o)
{
    fclose(o->f);
}

static void reports_show_escapes(void **state)
{
    (void)state;
    json_t *doc = load();
    for (int fmt = GS_FORMAT_TEXT; fmt <= GS_FORMAT_CSV; fmt++) {
        out o;
        gs_report_print(open_out(&o), doc, (gs_report_format)fmt, true);
        close_out(&o);
        assert_clean(o.text, o.len);
        if (fmt != GS_FORMAT_CSV)   /* CSV rows are the figures only */
            assert_non_null(strstr(o.text, "x\\n-visualizer_outputfile"));
        if (fmt == GS_FORMAT_MARKDOWN) {
            assert_non_null(strstr(o.text, "l1\\|x\\n"));
            assert_non_null(strstr(o.text, "-cmd\\|x"));
        }
        if (fmt == GS_FORMAT_CSV) {
            assert_non_null(strstr(o.text, "\"'=HYPERLINK(\"\"http://x\"\")\""));
            assert_non_null(strstr(o.text, "\"'@SUM(A1)\\n\""));
            assert_non_null(strstr(o.text, "\"'+u\""));
            assert_non_null(strstr(o.text, "\"'-cmd|x\""));
            assert_non_null(strstr(o.text, ",-3.5,"));          /* numbers stay numbers */
            assert_non_null(strstr(o.text, "\"\\tm\""));
        }
        free(o.text);
    }
    json_decref(doc);
}

static void compare_shows_escapes(void **state)
{
    (void)state;
    json_t *a = load(), *b = json_deep_copy(a);
    gs_error err;
    json_object_set_new(json_object_get(b, "device"), "name", json_string("y\x1b[31m"));
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "probes"), 0), "params"),
                        "level", json_string("l2\n-other"));
    /* a figure in one document only (printed, marked !) with a tab in its unit and list */
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "probes"), 0), "figures"),
                        "new_cycles", json_pack("{s:f, s:s, s:f, s:i, s:s}", "value", 3.0, "unit",
                                                "cycle\ts", "ci95", 0.5, "n", 4, "method", "m"));
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "probes"), 0), "figures"),
                        "new_words", json_pack("{s:[s], s:s, s:n, s:i, s:s}", "value", "a\tb",
                                               "unit", "", "ci95", "n", 1, "method", "m"));
    out o;
    gs_compare_counts counts;
    gs_report_compare(open_out(&o), a, b, GS_COMPARE_TOLERANCE_PERCENT, &counts, &err);
    close_out(&o);
    assert_clean(o.text, o.len);
    assert_non_null(strstr(o.text, "y\\x1b[31m"));
    assert_non_null(strstr(o.text, "cycle\\ts"));
    assert_non_null(strstr(o.text, "a\\tb"));
    free(o.text);
    json_decref(a);
    json_decref(b);
}

static void fleet_shows_escapes(void **state)
{
    (void)state;
    json_t *doc = load();
    gs_fleet_input in[4] = {
        {"a\n-x.json", doc, NULL}, {"b.json", doc, NULL}, {"c.json", doc, NULL},
        {"=d.json", NULL, "unreadable\x1b[2J"},
    };
    gs_fleet_options opt = gs_fleet_default_options();
    json_t *analysis = NULL;
    gs_error err;
    assert_int_equal(gs_fleet_analyse(in, 4, &opt, &analysis, &err), 0);
    for (int fmt = GS_FLEET_TEXT; fmt < GS_FLEET_JSON; fmt++) {
        out o;
        gs_fleet_print(open_out(&o), analysis, (gs_fleet_format)fmt);
        close_out(&o);
        assert_clean(o.text, o.len);
        free(o.text);
    }
    json_decref(analysis);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reports_show_escapes),
        cmocka_unit_test(compare_shows_escapes),
        cmocka_unit_test(fleet_shows_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
