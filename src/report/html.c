/* The HTML report (`gpusonar html RESULT.json`): one self-contained page made from the result
 * document alone (DESIGN.md, principle 4). Its first screen holds what a reader looks for: the
 * heading, the banners, one line about the run, the memory hierarchy as a diagram
 * (src/report/html_diagram.c) beside latency against footprint and the occupancy roofline; then
 * the other key plots (src/report/html_charts.c), the one-page summary, and per probe record its
 * figures (value, ci95, n, method; the reason of a "not determined" one), status, warnings and its
 * series, closed until opened; the run's details (command line, device and environment records)
 * close the page. Charts are inline SVG drawn in C (src/report/html_plot.c). The page loads
 * nothing from anywhere and runs no script; its Content-Security-Policy forbids both, as a
 * second wall behind the escaping that every string from the document goes through
 * (gs_html_escape). Long text wraps: nothing reaches past the window's right edge. */
#define _GNU_SOURCE
#include "report/html.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/crosscheck_print.h"
#include "report/report.h"
#include "util/escape.h"
#include "util/units.h"

#define MAX_DEPTH 8   /* nesting shown of a generic record (environment, parameters) */

static const char style[] =
    "*{box-sizing:border-box}\n"
    "body{font-family:sans-serif;margin:.6em auto;max-width:1440px;padding:0 1em;color:#111;"
    "overflow-wrap:anywhere}\n"
    "h1{font-size:1.35em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;"
    "border-bottom:1px solid #ccc}h3{font-size:1.05em}\n"
    "p.run{margin:.2em 0 .5em;color:#333}\n"
    "table{border-collapse:collapse;margin:.5em 0;max-width:100%}\n"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top;"
    "overflow-wrap:anywhere}\n"
    "table.kv th{background:#f4f4f4;font-weight:normal}\n"
    "table.figures{width:100%;table-layout:fixed}table.figures col.name{width:22%}"
    "table.figures col.value{width:26%}table.figures col.ci95{width:12%}"
    "table.figures col.n{width:6%}\n"
    "td.method{font-size:.85em;color:#444}\n"
    ".nd{color:#a15c00}.banner{padding:.4em 1em;margin:.3em 0;font-weight:bold;"
    "border-radius:4px}\n"
    ".simulated{background:#fff3c4;border:2px solid #c9a000}\n"
    ".incomplete{background:#ffe0e0;border:2px solid #c00}\n"
    ".status{font-size:.8em;padding:.1em .4em;border-radius:3px;background:#ddd}\n"
    ".status.ok{background:#d8f0d8}.status.failed{background:#f6caca}\n"
    ".message{color:#900}.warnings li{color:#8a5a00}\n"
    "pre.summary{background:#f8f8f8;border:1px solid #ddd;padding:.8em;overflow-x:auto}\n"
    "#overview{display:grid;grid-template-columns:minmax(0,48fr) minmax(0,52fr);gap:.6em 1em}\n"
    "#overview>figure:first-child{grid-row:span 2}\n"
    "figure{margin:0;min-width:0}figcaption{font-size:.85em;color:#444}\n"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:1em}\n"
    ".grid.key{grid-template-columns:repeat(auto-fill,minmax(600px,1fr))}\n"
    "svg.plot,svg.diagram{display:block;max-width:100%;height:auto;background:#fff}\n"
    "svg.plot{border:1px solid #ddd}\n"
    "svg.plot .grid{stroke:#ebebeb}svg.plot .axes{fill:none;stroke:#333}\n"
    "svg.plot .line{fill:none;stroke-width:1.6}svg.plot .fit{fill:none;stroke-width:1.6;"
    "stroke-dasharray:6 4}\n"
    "svg.plot .errorbar{fill:none;stroke-width:1}\n"
    "svg.plot .mark line{stroke:#777;stroke-dasharray:3 3}svg.plot .mark text{fill:#444;"
    "font-size:11px}\n"
    "svg text{font-size:12px;fill:#222}svg.plot .legend text{font-size:11px}\n"
    "svg.diagram rect{fill:#f3f6fb;stroke:#567}svg.diagram rect.sm{fill:#fbfbf5}"
    "svg.diagram rect.absent{fill:#f4f4f4;stroke:#aaa;stroke-dasharray:4 3}"
    "svg.diagram rect.part{fill:#e6eefa}\n"
    "svg.diagram text{font-size:11.5px}svg.diagram .name{font-weight:bold;font-size:12px}svg.diagram text.nd{fill:#a15c00}"
    "svg.diagram .note{fill:#555;font-size:11px}svg.diagram .link{stroke:#567;stroke-width:3}\n"
    "p.missing{border:1px dashed #bbb;padding:1em;color:#555}\n"
    "details{margin:.5em 0}summary{cursor:pointer;color:#1f5fbf}\n";

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? s : fallback;
}

/* A scalar as text: strings escaped, numbers formatted here, never copied from the input. */
static void scalar(FILE *out, const json_t *v)
{
    if (json_is_string(v))
        gs_html_escape(out, json_string_value(v));
    else if (json_is_integer(v))
        fprintf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        fprintf(out, "%.10g", json_real_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "true" : "false", out);
    else
        fputs("<span class=\"nd\">null</span>", out);
}

static bool all_scalars(const json_t *array)
{
    size_t i;
    const json_t *e;
    json_array_foreach(array, i, e)
        if (json_is_object(e) || json_is_array(e))
            return false;
    return true;
}

/* Any JSON value, whatever its keys: objects as key/value tables, lists of scalars on one line,
 * other lists as numbered items. */
static void value_html(FILE *out, const json_t *v, int depth)
{
    size_t size = json_is_object(v) ? json_object_size(v) : json_array_size(v);
    if (depth > MAX_DEPTH) {
        fputs("(nested too deeply to show)", out);
    } else if ((json_is_object(v) || json_is_array(v)) && size == 0) {
        fputs("(none)", out);
    } else if (json_is_object(v)) {
        const char *key;
        json_t *e;
        fputs("<table class=\"kv\">\n", out);
        json_object_foreach((json_t *)v, key, e) {
            fputs("<tr><th>", out);
            gs_html_escape(out, key);
            fputs("</th><td>", out);
            value_html(out, e, depth + 1);
            fputs("</td></tr>\n", out);
        }
        fputs("</table>\n", out);
    } else if (json_is_array(v)) {
        size_t i;
        const json_t *e;
        bool flat = all_scalars(v);
        fputs(flat ? "" : "<ol>", out);
        json_array_foreach(v, i, e) {
            fputs(flat ? (i ? ", " : "") : "<li>", out);
            value_html(out, e, depth + 1);
            fputs(flat ? "" : "</li>", out);
        }
        fputs(flat ? "" : "</ol>\n", out);
    } else {
        scalar(out, v);
    }
}

static void head(FILE *out, const json_t *doc)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">\n<title>gpusonar report: ", out);
    gs_html_escape(out, str_or(json_object_get(doc, "device"), "name", "no device"));
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

/* The command line as one string, arguments with blanks or quotes in single quotes. */
static void command_line(FILE *out, const json_t *args)
{
    size_t i;
    const json_t *a;
    json_array_foreach(args, i, a) {
        const char *s = json_string_value(a);
        bool quote = s && (!*s || strpbrk(s, " \t\n'\"\\$`*?;&|<>()") != NULL);
        fputs(i ? " " : "", out);
        fputs(quote ? "&#39;" : "", out);
        gs_html_escape(out, s ? s : "?");
        fputs(quote ? "&#39;" : "", out);
    }
}

static void header_row(FILE *out, const char *name, const char *text)
{
    fprintf(out, "<tr><th>%s</th><td>", name);
    gs_html_escape(out, text);
    fputs("</td></tr>\n", out);
}

static void banners(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    if (json_is_true(json_object_get(dev, "simulated"))) {
        fputs("<p class=\"banner simulated\" id=\"simulated\">SIMULATED: model ", out);
        gs_html_escape(out, str_or(dev, "model", "?"));
        fputs(", not a real GPU. Every figure below describes the model.</p>\n", out);
    }
    const json_t *env = json_object_get(doc, "environment");
    if (json_is_true(json_object_get(env, "throttled")))
        fputs("<p class=\"banner incomplete\" id=\"throttled\">WARNING: the GPU throttled during "
              "the run; figures in ns and bandwidths may be low.</p>\n", out);
    if (json_is_true(json_object_get(env, "shared")))
        fputs("<p class=\"banner incomplete\" id=\"shared\">WARNING: another compute process "
              "used the GPU during the run.</p>\n", out);
    if (!json_is_true(json_object_get(doc, "complete"))) {
        fputs("<p class=\"banner incomplete\" id=\"incomplete\">INCOMPLETE: ", out);
        gs_html_escape(out, str_or(doc, "incomplete_reason", "the run did not finish"));
        fputs("</p>\n", out);
    }
}

/* The device record and the environment record, whatever their keys. */
static void records(FILE *out, const json_t *doc)
{
    const json_t *env = json_object_get(doc, "environment");
    if (env) {
        fputs("<section id=\"environment\">\n<h2>Environment</h2>\n", out);
        value_html(out, env, 0);
        fputs("</section>\n", out);
    }
    const json_t *dev = json_object_get(doc, "device");
    if (dev) {
        fputs("<details id=\"device\"><summary>Device record</summary>\n", out);
        value_html(out, dev, 0);
        fputs("</details>\n", out);
    }
}

/* The backend, and for a simulated device its model; true when simulated. */
static bool backend_text(FILE *out, const json_t *dev)
{
    gs_html_escape(out, str_or(dev, "backend", "?"));
    if (!json_is_true(json_object_get(dev, "simulated")))
        return false;
    fputs(" (simulated model ", out);
    gs_html_escape(out, str_or(dev, "model", "?"));
    fputs(")", out);
    return true;
}

/* One line under the heading: backend, device, version, time, completeness. */
static void run_line(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device"), *tool = json_object_get(doc, "tool");
    fputs("<p class=\"run\">", out);
    if (!backend_text(out, dev) && dev) {
        fputs(", compute capability ", out);
        gs_html_escape(out, str_or(dev, "compute_capability", "?"));
        fprintf(out, ", %lld SMs", (long long)json_integer_value(json_object_get(dev, "sm_count")));
    }
    fputs(" &#183; gpusonar ", out);
    gs_html_escape(out, str_or(tool, "version", "?"));
    fputs(" &#183; ", out);
    gs_html_escape(out, str_or(doc, "time_utc", "?"));
    fputs(" UTC &#183; ", out);
    fputs(json_is_true(json_object_get(doc, "complete")) ? "complete" : "incomplete", out);
    fputs(" &#183; <a href=\"#plots\">plots</a> &#183; <a href=\"#summary\">summary</a> "
          "&#183; <a href=\"#contents\">probe records</a> &#183; <a href=\"#run-details\">run "
          "details</a></p>\n", out);
}

/* The heading, the banners that must not be missed, and the run's line. */
static void heading(FILE *out, const json_t *doc)
{
    fputs("<h1>gpusonar report: ", out);
    gs_html_escape(out, str_or(json_object_get(doc, "device"), "name", "no device"));
    fputs("</h1>\n", out);
    banners(out, doc);
    run_line(out, doc);
}

/* Device, backend, version, commit, command line, time and completeness, with the device and
 * environment records, closed at the end of the page. */
static void header(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device"), *tool = json_object_get(doc, "tool");
    fputs("<details id=\"run-details\"><summary>Run details</summary>\n", out);
    fputs("<table class=\"kv\" id=\"run\">\n", out);
    header_row(out, "device", str_or(dev, "name", "no device"));
    fputs("<tr><th>backend</th><td>", out);
    if (!backend_text(out, dev) && dev) {
        fprintf(out, ":%lld, compute capability ",
                (long long)json_integer_value(json_object_get(dev, "ordinal")));
        gs_html_escape(out, str_or(dev, "compute_capability", "?"));
        fprintf(out, ", %lld SMs", (long long)json_integer_value(json_object_get(dev, "sm_count")));
    }
    fputs("</td></tr>\n", out);
    header_row(out, "gpusonar", str_or(tool, "version", "?"));
    header_row(out, "commit", str_or(tool, "commit", "?"));
    fputs("<tr><th>command line</th><td><code>", out);
    command_line(out, json_object_get(doc, "command_line"));
    fputs("</code></td></tr>\n", out);
    header_row(out, "time (UTC)", str_or(doc, "time_utc", "?"));
    fputs("<tr><th>result</th><td>", out);
    if (json_is_true(json_object_get(doc, "complete")))
        fputs("complete", out);
    else
        gs_html_escape(out, str_or(doc, "incomplete_reason", "incomplete: the run did not finish"));
    fputs("</td></tr>\n</table>\n", out);
    records(out, doc);
    fputs("</details>\n", out);
}

/* The first screen: the hierarchy beside the staircase and the roofline. */
static void overview(FILE *out, const json_t *doc)
{
    fputs("<section id=\"overview\">\n<figure>", out);
    gs_html_hierarchy(out, doc);
    fputs("<figcaption>The memory hierarchy as measured; grey text was not determined (hover it "
          "for the reason).</figcaption></figure>\n<figure>", out);
    gs_html_staircase(out, doc, "chart-staircase", 680, 300);
    fputs("<figcaption>Latency against footprint: one step per cache level, the Eq. 6 fit "
          "dashed, the capacities it found marked.</figcaption></figure>\n<figure>", out);
    gs_html_roofline(out, doc, "chart-roofline", 680, 300);
    fputs("<figcaption>Occupancy roofline: throughput against warps per SM, per instruction "
          "type.</figcaption></figure>\n</section>\n", out);
}

/* The one-page summary of the text report (src/report/summary.c), escaped, as preformatted text
 * so its columns stay aligned. */
static int summary(FILE *out, const json_t *doc, gs_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of memory formatting the summary");
    gs_report_summary(mem, doc);
    if (fclose(mem) != 0 || !text) {
        free(text);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of memory formatting the summary");
    }
    fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<pre class=\"summary\">", out);
    gs_html_escape(out, text);
    fputs("</pre>\n</section>\n", out);
    free(text);
    return 0;
}

/* Record i's heading text: "name (level)". */
static void record_title(const json_t *p, char *buf, size_t len)
{
    const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
    snprintf(buf, len, "%s%s%s%s", str_or(p, "name", "?"), level ? " (" : "", level ? level : "",
             level ? ")" : "");
}

/* The interval cell: ±ci95 in the value's unit (util/units.h), 0 when exact or one sample, ±[a, b]
 * for a list figure's half-widths, - when not a number. */
static void interval(FILE *out, const json_t *f)
{
    const json_t *ci = json_object_get(f, "ci95");
    if (json_is_array(json_object_get(f, "value")) && json_is_array(ci)) {
        char list[256];
        gs_report_format_list_ci(ci, list, sizeof list);
        fprintf(out, "&#177;%s", list);   /* numbers, commas, brackets and -: nothing to escape */
        return;
    }
    if (!json_is_number(json_object_get(f, "value")) || !json_is_number(ci)) {
        fputs("-", out);
        return;
    }
    /* In the value's unit, as the text report gives it ("48.00 MiB" ± "0.45 MiB", "1980 MHz"
     * ± "0.001 MHz"): the value's scale divides the half-width too. */
    const char *unit = str_or(f, "unit", "");
    double half = json_number_value(ci);
    gs_unit_scale scale;
    char text[48];
    gs_units_scale(json_number_value(json_object_get(f, "value")), unit, &scale);
    if (half > 0)
        gs_units_halfwidth(half / (scale.divisor > 0 ? scale.divisor : 1), text, sizeof text);
    else
        snprintf(text, sizeof text, "0");    /* exact, or one sample */
    fprintf(out, "&#177;%s", text);   /* digits, '.', 'e' and '-': nothing to escape */
    if (*scale.unit && half > 0) {
        fputc(' ', out);
        gs_html_escape(out, scale.unit);
    }
}

static void figure_row(FILE *out, const char *name, const json_t *f)
{
    char value[1024];
    gs_report_format_value(f, value, sizeof value);
    bool nd = !json_object_get(f, "value") || json_is_null(json_object_get(f, "value"));
    fputs("<tr><td class=\"name\">", out);
    gs_html_escape(out, name);
    fprintf(out, "</td><td class=\"value%s\">", nd ? " nd" : "");
    gs_html_escape(out, value);
    fputs("</td><td class=\"ci95\">", out);
    interval(out, f);
    fputs("</td><td class=\"n\">", out);
    if (json_is_integer(json_object_get(f, "n")))
        fprintf(out, "%lld", (long long)json_integer_value(json_object_get(f, "n")));
    fputs("</td><td class=\"method\">", out);
    gs_html_escape(out, str_or(f, "method", ""));
    fputs("</td></tr>\n", out);
}

static void figures_table(FILE *out, const json_t *p)
{
    const char *name;
    json_t *f;
    fputs("<table class=\"figures\"><colgroup><col class=\"name\"><col class=\"value\">"
          "<col class=\"ci95\"><col class=\"n\"><col class=\"method\"></colgroup>\n<thead><tr><th>figure</th><th>value</th><th>ci95</th>"
          "<th>n</th><th>method</th></tr></thead>\n<tbody>\n", out);
    json_object_foreach(json_object_get(p, "figures"), name, f)
        figure_row(out, name, f);
    if (json_object_size(json_object_get(p, "figures")) == 0)
        fputs("<tr><td colspan=\"5\">no figures</td></tr>\n", out);
    fputs("</tbody>\n</table>\n", out);
}

/* Status, elapsed time, SM clock before and after, message. */
static void record_state(FILE *out, const json_t *p)
{
    const char *status = str_or(p, "status", "?");
    const char *cls = strcmp(status, "ok") == 0 ? "ok" : strcmp(status, "failed") == 0 ? "failed"
                                                                                       : "other";
    fprintf(out, "<p class=\"meta\"><span class=\"status %s\">", cls);
    gs_html_escape(out, status);
    fputs("</span>", out);
    const json_t *el = json_object_get(p, "elapsed_s");
    if (json_is_number(el))
        fprintf(out, " %.1f s", json_number_value(el));
    const json_t *before = json_object_get(p, "clock_khz_before");
    const json_t *after = json_object_get(p, "clock_khz_after");
    if (json_is_number(before) && json_is_number(after))
        fprintf(out, ", SM clock %.0f MHz before, %.0f MHz after",
                json_number_value(before) / 1000, json_number_value(after) / 1000);
    fputs("</p>\n", out);
    const char *msg = json_string_value(json_object_get(p, "message"));
    if (msg) {
        fputs("<p class=\"message\">", out);
        gs_html_escape(out, msg);
        fputs("</p>\n", out);
    }
}

static void warnings(FILE *out, const json_t *p)
{
    size_t i;
    const json_t *w;
    if (json_array_size(json_object_get(p, "warnings")) == 0)
        return;
    fputs("<ul class=\"warnings\">\n", out);
    json_array_foreach(json_object_get(p, "warnings"), i, w) {
        fputs("<li>warning: ", out);
        gs_html_escape(out, json_is_string(w) ? json_string_value(w) : "?");
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

static void record(FILE *out, const json_t *p, size_t index)
{
    char title[400];
    record_title(p, title, sizeof title);
    fprintf(out, "<section class=\"probe\" id=\"probe-%zu\">\n<h2>", index);
    gs_html_escape(out, title);
    fputs("</h2>\n", out);
    record_state(out, p);
    if (json_object_size(json_object_get(p, "params")) > 0) {
        fputs("<details class=\"params\"><summary>parameters</summary>\n", out);
        value_html(out, json_object_get(p, "params"), 0);
        fputs("</details>\n", out);
    }
    figures_table(out, p);
    warnings(out, p);
    gs_html_record_series(out, p, index, title);
    fputs("</section>\n", out);
}

/* A list of the records, linked to their sections. */
static void contents(FILE *out, const json_t *doc)
{
    size_t i;
    const json_t *p;
    fputs("<nav id=\"contents\"><h2>Probe records</h2>\n<ol>\n", out);
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        char title[400];
        record_title(p, title, sizeof title);
        fprintf(out, "<li><a href=\"#probe-%zu\">", i);
        gs_html_escape(out, title);
        fputs("</a> ", out);
        gs_html_escape(out, str_or(p, "status", "?"));
        fputs("</li>\n", out);
    }
    fputs("</ol>\n</nav>\n", out);
}

int gs_report_html(FILE *out, const json_t *doc, gs_error *err)
{
    if (!json_is_object(doc))
        return gs_fail(err, GS_ERR_INPUT, "not a result document (not a JSON object)");
    head(out, doc);
    heading(out, doc);
    overview(out, doc);
    gs_html_key_plots(out, doc);
    int rc = summary(out, doc, err);
    if (rc)
        return rc;
    gs_report_crosscheck_html(out, doc);
    contents(out, doc);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        record(out, p, i);
    header(out, doc);
    fputs("</body>\n</html>\n", out);
    if (fflush(out) != 0 || ferror(out))
        return gs_fail(err, GS_ERR_IO, "cannot write the HTML report");
    return 0;
}
