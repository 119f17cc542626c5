/* Printers of a fleet analysis (fleet.h): text for a terminal, markdown for the fleet page (one
 * pipe table per GPU model, outliers in bold), CSV for spreadsheets and JSON (the analysis as
 * is). Values are formatted by the report's own figure printer, so "50 MiB" reads as it does in a
 * single GPU's report. */
#include <math.h>
#include <string.h>

#include "report/fleet.h"
#include "report/report.h"
#include "util/escape.h"

static const char *str_or(const json_t *obj, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && *s ? gs_esc(s) : fallback;   /* document text: the text rule of escape.h */
}

/* A unit as the document has it: format_value escapes it where it prints it, so a unit held
 * through a loop never waits on one of gs_esc's reused buffers. */
static const char *unit_of(const json_t *obj)
{
    const char *s = json_string_value(json_object_get(obj, "unit"));
    return s ? s : "";
}

int gs_fleet_format_parse(const char *name, gs_fleet_format *out)
{
    static const char *const names[] = {"text", "markdown", "csv", "json"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (gs_fleet_format)i;
            return 0;
        }
    return -1;
}

/* A value with its unit, as the report prints figures ("50 MiB", "33.5 cycles"). */
static void format_value(double v, const char *unit, char *buf, size_t len)
{
    json_t *f = json_pack("{s:f, s:s, s:f}", "value", v, "unit", unit ? unit : "", "ci95", 0.0);
    if (!f) {
        snprintf(buf, len, "%g", v);
        return;
    }
    gs_report_format_figure(f, buf, len);
    json_decref(f);
}

/* "-50.0 %, robust z -inf" */
static void format_offset(const json_t *o, char *buf, size_t len)
{
    const json_t *rel = json_object_get(o, "relative"), *z = json_object_get(o, "robust_z");
    char zbuf[32];
    if (json_is_number(z))
        snprintf(zbuf, sizeof zbuf, "%+.1f", json_number_value(z));
    else
        snprintf(zbuf, sizeof zbuf, "%s", json_number_value(json_object_get(o, "value")) >
                 json_number_value(json_object_get(o, "median")) ? "+inf" : "-inf");
    if (json_is_number(rel))
        snprintf(buf, len, "%+.1f %% from the median, robust z %s", json_number_value(rel) * 100,
                 zbuf);
    else
        snprintf(buf, len, "robust z %s", zbuf);
}

/* "host uuid" of an outlier or a GPU, short enough for a table. */
static void gpu_name(const json_t *g, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", str_or(g, "host", "?"), str_or(g, "uuid", "(no uuid)"));
}

static size_t count_of(const json_t *a, const char *key)
{
    return json_array_size(json_object_get(a, key));
}

/* ---- text -------------------------------------------------------------------------------------- */
static void text_outlier(FILE *out, const json_t *o, const char *indent)
{
    char gpu[200], val[64], med[64], off[96];
    gpu_name(o, gpu, sizeof gpu);
    const char *unit = unit_of(o);
    format_value(json_number_value(json_object_get(o, "value")), unit, val, sizeof val);
    format_value(json_number_value(json_object_get(o, "median")), unit, med, sizeof med);
    format_offset(o, off, sizeof off);
    fprintf(out, "%s%s  %s = %s (median %s; %s)\n", indent, gpu, str_or(o, "figure", "?"), val,
            med, off);
}

static void text_group(FILE *out, const json_t *g)
{
    size_t ngpu = count_of(g, "gpus");
    const char *few = json_string_value(json_object_get(g, "not_judged"));
    fprintf(out, "\n== %s, compute capability %s: %zu GPU%s%s%s ==\n", str_or(g, "device", "?"),
            str_or(g, "compute_capability", "?"), ngpu, ngpu == 1 ? "" : "s",
            json_is_true(json_object_get(g, "simulated")) ? " [SIMULATED]" : "",
            few ? ", NOT JUDGED: too few to judge" : "");
    fprintf(out, "%-40s %16s %14s %16s %16s  %s\n", "figure", "median", "spread (sigma)", "min",
            "max", "outliers");
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(g, "figures"), i, f) {
        const char *unit = unit_of(f);
        char med[64], spread[64], lo[64], hi[64];
        format_value(json_number_value(json_object_get(f, "median")), unit, med, sizeof med);
        format_value(json_number_value(json_object_get(f, "spread")), unit, spread, sizeof spread);
        format_value(json_number_value(json_object_get(f, "min")), unit, lo, sizeof lo);
        format_value(json_number_value(json_object_get(f, "max")), unit, hi, sizeof hi);
        size_t k = count_of(f, "outliers");
        const char *note = json_string_value(json_object_get(f, "not_judged"));
        note = note ? gs_esc(note) : NULL;
        fprintf(out, "%-40.40s %16s %14s %16s %16s  %s%s\n", str_or(f, "figure", "?"), med, spread,
                lo, hi, k ? "OUTLIER" : note ? "not judged: " : "", k || !note ? "" : note);
    }
    json_t *gpu;
    fprintf(out, "GPUs:\n");
    json_array_foreach(json_object_get(g, "gpus"), i, gpu) {
        char name[200];
        gpu_name(gpu, name, sizeof name);
        fprintf(out, "  %s  %s%s\n", name, str_or(gpu, "path", ""),
                json_is_true(json_object_get(gpu, "complete")) ? "" : "  (incomplete run)");
    }
}

static void text_trouble(FILE *out, const json_t *a)
{
    size_t i;
    json_t *d;
    if (count_of(a, "set_aside"))
        fprintf(out, "\nSet aside (another schema or gpusonar version; not compared):\n");
    json_array_foreach(json_object_get(a, "set_aside"), i, d)
        fprintf(out, "  %s (%s %s): %s\n", str_or(d, "path", "?"), str_or(d, "host", "?"),
                str_or(d, "uuid", ""), str_or(d, "reason", ""));
    if (count_of(a, "invalid"))
        fprintf(out, "\nInvalid documents (not read):\n");
    json_array_foreach(json_object_get(a, "invalid"), i, d)
        fprintf(out, "  %s: %s\n", str_or(d, "path", "?"), str_or(d, "reason", ""));
}

/* The models with too few GPUs to judge, one line each. */
static void text_not_judged(FILE *out, const json_t *a)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(a, "not_judged"), i, m)
        fprintf(out, "Not judged: %s (compute capability %s): %s.\n", str_or(m, "device", "?"),
                str_or(m, "compute_capability", "?"), str_or(m, "reason", ""));
}

static void text(FILE *out, const json_t *a)
{
    const json_t *opt = json_object_get(a, "options");
    size_t n = gs_fleet_outlier_count(a), few = gs_fleet_not_judged_count(a);
    size_t models = count_of(a, "groups");
    fprintf(out, "gpusonar fleet: %lld documents, %zu GPU model%s",
            (long long)json_integer_value(json_object_get(a, "documents")), models,
            models == 1 ? "" : "s");
    long long min_gpus = (long long)json_integer_value(json_object_get(opt, "min_gpus"));
    if (few && few == models)
        fprintf(out, ", NOT JUDGED: fewer than %lld GPUs of %s", min_gpus,
                models == 1 ? "it" : "each");
    else
        fprintf(out, ", %zu outlier%s", n, n == 1 ? "" : "s");
    if (few && few < models)
        fprintf(out, "; %zu model%s NOT JUDGED: fewer than %lld GPUs", few, few == 1 ? "" : "s",
                min_gpus);
    fprintf(out, " (robust z > %g, more than %g %% from the median and beyond the intervals; "
            "%s)\n", json_number_value(json_object_get(opt, "z_threshold")),
            json_number_value(json_object_get(opt, "min_relative")) * 100,
            str_or(a, "version", "?"));
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(a, "groups"), i, g)
        text_group(out, g);
    fputc('\n', out);
    text_not_judged(out, a);
    if (n)
        fprintf(out, "Outliers:\n");
    else if (few < models)
        fprintf(out, "No outliers%s.\n", few ? " among the models judged" : "");
    json_array_foreach(json_object_get(a, "outliers"), i, g)
        text_outlier(out, g, "  ");
    text_trouble(out, a);
}

/* ---- markdown ---------------------------------------------------------------------------------- */
static void md_text(FILE *out, const char *s)
{
    for (s = gs_esc(s); *s; s++) {
        if (strchr("|\\*_`<>[]#", *s))
            fputc('\\', out);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
}

static void md_group(FILE *out, const json_t *g)
{
    const char *few = json_string_value(json_object_get(g, "not_judged"));
    fputs("\n## ", out);
    md_text(out, str_or(g, "device", "?"));
    fprintf(out, " (compute capability %s): %zu GPUs%s%s\n\n", str_or(g, "compute_capability", "?"),
            count_of(g, "gpus"), json_is_true(json_object_get(g, "simulated")) ? ", SIMULATED" : "",
            few ? ", not judged" : "");
    if (few) {
        fputs("Not judged: ", out);
        md_text(out, few);
        fputs(".\n\n", out);
    }
    fputs("| figure | median | spread (σ) | min | max | outliers |\n|---|---|---|---|---|---|\n", out);
    size_t i, k;
    json_t *f, *o;
    json_array_foreach(json_object_get(g, "figures"), i, f) {
        const char *unit = unit_of(f);
        char buf[4][64];
        const char *keys[4] = {"median", "spread", "min", "max"};
        for (int c = 0; c < 4; c++)
            format_value(json_number_value(json_object_get(f, keys[c])), unit, buf[c], sizeof buf[c]);
        bool flagged = count_of(f, "outliers") > 0;
        fputs(flagged ? "| **" : "| ", out);
        md_text(out, str_or(f, "figure", "?"));
        fprintf(out, "%s | %s | %s | %s | %s | ", flagged ? "**" : "", buf[0], buf[1], buf[2], buf[3]);
        if (json_string_value(json_object_get(f, "not_judged"))) {
            fputs("not judged: ", out);
            md_text(out, json_string_value(json_object_get(f, "not_judged")));
        }
        json_array_foreach(json_object_get(f, "outliers"), k, o) {
            char val[64];
            format_value(json_number_value(json_object_get(o, "value")), unit, val, sizeof val);
            fputs(k ? "; **" : "**", out);
            md_text(out, str_or(o, "host", "?"));
            fputc(' ', out);
            md_text(out, str_or(o, "uuid", ""));
            fprintf(out, "**: %s", val);
        }
        fputs(" |\n", out);
    }
}

static void md_outliers(FILE *out, const json_t *a)
{
    size_t n = gs_fleet_outlier_count(a), i;
    json_t *o;
    fprintf(out, "\n## Outliers: %zu\n\n", n);
    if (!n)
        return;
    fputs("| host | GPU UUID | model | figure | value | median | how far off |\n"
          "|---|---|---|---|---|---|---|\n", out);
    json_array_foreach(json_object_get(a, "outliers"), i, o) {
        const char *unit = unit_of(o);
        char val[64], med[64], off[96];
        format_value(json_number_value(json_object_get(o, "value")), unit, val, sizeof val);
        format_value(json_number_value(json_object_get(o, "median")), unit, med, sizeof med);
        format_offset(o, off, sizeof off);
        const char *cells[4] = {str_or(o, "host", "?"), str_or(o, "uuid", ""),
                                str_or(o, "device", "?"), str_or(o, "figure", "?")};
        for (int c = 0; c < 4; c++) {
            fputs(c ? " | " : "| **", out);
            md_text(out, cells[c]);
            fputs(c ? "" : "**", out);
        }
        fprintf(out, " | **%s** | %s | %s |\n", val, med, off);
    }
}

static void md_trouble(FILE *out, const json_t *a)
{
    size_t i;
    json_t *d;
    if (count_of(a, "set_aside"))
        fputs("\n## Set aside (another schema or gpusonar version; not compared)\n\n", out);
    json_array_foreach(json_object_get(a, "set_aside"), i, d) {
        fputs("- ", out);
        md_text(out, str_or(d, "path", "?"));
        fputs(": ", out);
        md_text(out, str_or(d, "reason", ""));
        fputc('\n', out);
    }
    if (count_of(a, "invalid"))
        fputs("\n## Invalid documents (not read)\n\n", out);
    json_array_foreach(json_object_get(a, "invalid"), i, d) {
        fputs("- ", out);
        md_text(out, str_or(d, "path", "?"));
        fputs(": ", out);
        md_text(out, str_or(d, "reason", ""));
        fputc('\n', out);
    }
}

static void markdown(FILE *out, const json_t *a)
{
    const json_t *opt = json_object_get(a, "options");
    fputs("# gpusonar fleet\n\n", out);
    fprintf(out, "%lld documents; schema and version: ", (long long)json_integer_value(json_object_get(a, "documents")));
    md_text(out, str_or(a, "version", "?"));
    fprintf(out, ". An outlier is more than %g robust z-scores (median absolute deviation) and "
            "more than %g %% from its model's median, and beyond the measurements' intervals; "
            "outliers are in **bold**.\n", json_number_value(json_object_get(opt, "z_threshold")),
            json_number_value(json_object_get(opt, "min_relative")) * 100);
    size_t i;
    json_t *m;
    if (gs_fleet_not_judged_count(a))
        fputs("\n## Not judged\n\n", out);
    json_array_foreach(json_object_get(a, "not_judged"), i, m) {
        fputs("- **", out);
        md_text(out, str_or(m, "device", "?"));
        fprintf(out, "** (compute capability %s): ", str_or(m, "compute_capability", "?"));
        md_text(out, str_or(m, "reason", ""));
        fputc('\n', out);
    }
    md_outliers(out, a);
    json_t *g;
    json_array_foreach(json_object_get(a, "groups"), i, g)
        md_group(out, g);
    md_trouble(out, a);
}

/* ---- csv --------------------------------------------------------------------------------------- */

static void csv_number(FILE *out, const json_t *v)
{
    if (json_is_number(v))
        fprintf(out, "%.10g", json_number_value(v));
}

/* One row per model not judged, then one row per (model, figure) with its statistics and, for an
 * outlier, one row per GPU that is one: kind,device,compute_capability,figure,unit,count,median,
 * spread,min,max,host,uuid,value,relative,robust_z. */
static void csv(FILE *out, const json_t *a)
{
    fputs("kind,device,compute_capability,figure,unit,count,median,spread,min,max,host,uuid,value,"
          "relative,robust_z\n", out);
    size_t i, k;
    json_t *g, *f, *o;
    /* a model with too few GPUs: kind not_judged, its GPU count in count */
    json_array_foreach(json_object_get(a, "not_judged"), i, g) {
        gs_csv_field(out, "not_judged");
        fputc(',', out);
        gs_csv_field(out, str_or(g, "device", ""));
        fputc(',', out);
        gs_csv_field(out, str_or(g, "compute_capability", ""));
        fprintf(out, ",,,%lld,,,,,,,,,\n",
                (long long)json_integer_value(json_object_get(g, "gpus")));
    }
    json_array_foreach(json_object_get(a, "groups"), i, g) {
        size_t j;
        json_array_foreach(json_object_get(g, "figures"), j, f) {
            for (k = 0; k <= count_of(f, "outliers"); k++) {
                o = k ? json_array_get(json_object_get(f, "outliers"), k - 1) : NULL;
                gs_csv_field(out, o ? "outlier" : "figure");
                fputc(',', out);
                gs_csv_field(out, str_or(g, "device", ""));
                fputc(',', out);
                gs_csv_field(out, str_or(g, "compute_capability", ""));
                fputc(',', out);
                gs_csv_field(out, str_or(f, "figure", ""));
                fputc(',', out);
                gs_csv_field(out, str_or(f, "unit", ""));
                fprintf(out, ",%lld", (long long)json_integer_value(json_object_get(f, "count")));
                const char *keys[4] = {"median", "spread", "min", "max"};
                for (int c = 0; c < 4; c++) {
                    fputc(',', out);
                    csv_number(out, json_object_get(f, keys[c]));
                }
                fputc(',', out);
                gs_csv_field(out, o ? str_or(o, "host", "") : "");
                fputc(',', out);
                gs_csv_field(out, o ? str_or(o, "uuid", "") : "");
                fputc(',', out);
                csv_number(out, json_object_get(o, "value"));
                fputc(',', out);
                csv_number(out, json_object_get(o, "relative"));
                fputc(',', out);
                csv_number(out, json_object_get(o, "robust_z"));
                fputc('\n', out);
            }
        }
    }
}

void gs_fleet_print(FILE *out, const json_t *analysis, gs_fleet_format fmt)
{
    switch (fmt) {
    case GS_FLEET_MARKDOWN:
        markdown(out, analysis);
        break;
    case GS_FLEET_CSV:
        csv(out, analysis);
        break;
    case GS_FLEET_JSON:
        json_dumpf(analysis, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', out);
        break;
    default:
        text(out, analysis);
    }
}
