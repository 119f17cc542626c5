/* The report in the formats people paste (--format): markdown (headings and pipe tables, the
 * one-page summary as a fenced block) and CSV (one row per figure, RFC 4180 quoting), both made
 * from the result document alone, like the text report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/crosscheck_print.h"
#include "report/headline.h"
#include "report/report.h"
#include "util/escape.h"

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? s : fallback;
}

int gs_report_format_parse(const char *name, gs_report_format *out)
{
    static const char *const names[] = {"text", "markdown", "csv"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (gs_report_format)i;
            return 0;
        }
    return -1;
}

/* Text for a markdown table cell: the markdown rule of escape.h (control characters visible,
 * pipes escaped). */
static void md_cell(FILE *out, const char *s)
{
    gs_escape_md(out, s);
}

static void md_probe(FILE *out, const json_t *p, bool details)
{
    const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
    fputs("\n### ", out);
    md_cell(out, str_or(p, "name", "?"));
    if (level) {
        fputs(" (", out);
        md_cell(out, level);
        fputc(')', out);
    }
    fputs(" — ", out);
    md_cell(out, str_or(p, "status", "?"));
    fputs("\n\n", out);
    if (json_string_value(json_object_get(p, "message"))) {
        md_cell(out, json_string_value(json_object_get(p, "message")));
        fputs("\n\n", out);
    }
    fputs("| figure | value | method |\n|---|---|---|\n", out);
    gs_headline store;
    const gs_headline *h = details ? NULL : gs_headline_of(p, &store);
    const char *name;
    json_t *f;
    size_t hidden = 0;
    json_object_foreach(json_object_get(p, "figures"), name, f) {
        char buf[1200], label[128], row[32];
        int column;
        if (!gs_headline_line(h, name) && !gs_headline_cell(h, name, &column, row, sizeof row)) {
            hidden++;
            continue;
        }
        gs_report_format_figure(f, buf, sizeof buf);
        gs_headline_label(name, label, sizeof label);
        fputs("| ", out);
        md_cell(out, label);
        fputs(" | ", out);
        md_cell(out, buf);
        fputs(" | ", out);
        md_cell(out, str_or(f, "method", ""));
        fputs(" |\n", out);
    }
    if (hidden)
        fprintf(out, "\n%zu more figure%s: `--details`, or the JSON document.\n", hidden,
                hidden == 1 ? "" : "s");
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p, "warnings"), i, w) {
        fputs("\n> warning: ", out);
        md_cell(out, json_string_value(w));
        fputc('\n', out);
    }
}

static void markdown(FILE *out, const json_t *doc, unsigned parts)
{
    const json_t *dev = json_object_get(doc, "device");
    fputs("## gpusonar ", out);
    md_cell(out, str_or(json_object_get(doc, "tool"), "version", "?"));
    fputs(": ", out);
    md_cell(out, str_or(dev, "name", "no device"));
    if (json_is_true(json_object_get(dev, "simulated")))
        fputs(" (SIMULATED model, not a real GPU)", out);
    fputs("\n\n", out);
    md_cell(out, str_or(doc, "time_utc", ""));
    if (!json_is_true(json_object_get(doc, "complete"))) {
        fputs(" — **INCOMPLETE**: ", out);
        md_cell(out, str_or(doc, "incomplete_reason", "the run did not finish"));
    }
    fputc('\n', out);
    if (parts & GS_REPORT_SUMMARY) {
        /* The one-page summary is a fixed-width table: a fenced block keeps its columns. */
        fputs("\n```\n", out);
        gs_report_summary(out, doc);
        fputs("```\n", out);
    }
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        md_probe(out, p, parts & GS_REPORT_DETAILS);
    gs_report_crosscheck_markdown(out, doc, parts);
}

void gs_csv_field(FILE *out, const char *s)
{
    gs_escape_csv(out, s);
}

static void csv_value(FILE *out, const json_t *v)
{
    if (json_is_number(v))
        fprintf(out, "%.10g", json_number_value(v));
    else if (json_is_string(v))
        gs_csv_field(out, json_string_value(v));
    else if (json_is_array(v)) {
        char *text = json_dumps(v, JSON_COMPACT);
        gs_csv_field(out, text);
        free(text);
    }
}

static void csv(FILE *out, const json_t *doc)
{
    fputs("probe,level,status,figure,value,unit,ci95,n,method,reason\n", out);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
        const char *name;
        json_t *f;
        json_object_foreach(json_object_get(p, "figures"), name, f) {
            gs_csv_field(out, str_or(p, "name", ""));
            fputc(',', out);
            gs_csv_field(out, level ? level : "");
            fputc(',', out);
            gs_csv_field(out, str_or(p, "status", ""));
            fputc(',', out);
            gs_csv_field(out, name);
            fputc(',', out);
            csv_value(out, json_object_get(f, "value"));
            fputc(',', out);
            gs_csv_field(out, str_or(f, "unit", ""));
            fputc(',', out);
            csv_value(out, json_object_get(f, "ci95"));
            fprintf(out, ",%lld,", (long long)json_integer_value(json_object_get(f, "n")));
            gs_csv_field(out, str_or(f, "method", ""));
            fputc(',', out);
            gs_csv_field(out, str_or(f, "reason", ""));
            fputc('\n', out);
        }
    }
    gs_report_crosscheck_csv(out, doc);
}

void gs_report_print(FILE *out, const json_t *doc, gs_report_format fmt, unsigned parts)
{
    switch (fmt) {
    case GS_FORMAT_MARKDOWN:
        markdown(out, doc, parts);
        break;
    case GS_FORMAT_CSV:
        csv(out, doc);
        break;
    default:
        gs_report_text_parts(out, doc, parts);
    }
}

const json_t *gs_report_find_record(const json_t *doc, const char *key)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *level = json_string_value(json_object_get(json_object_get(p, "params"),
                                                              "level"));
        char k[128];
        snprintf(k, sizeof k, "%s%s%s", name ? name : "", level ? ":" : "", level ? level : "");
        if (strcmp(k, key) == 0)
            return p;
    }
    return NULL;
}
