/* CSV files of every series in a result document (--csv DIR). */
#include "report/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/outfile.h"

/* Keep names file-safe: letters, digits, '-', '_' and '.'; anything else becomes '_'. */
static void safe_name(char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            *s = '_';
}

/* A header cell "label (unit)": a CSV text cell (gs_csv_field: the label comes from a document). */
static void header_cell(FILE *f, const json_t *label, const json_t *unit)
{
    char text[256];
    const char *u = json_string_value(unit);
    snprintf(text, sizeof text, "%s%s%s%s", json_string_value(label) ? json_string_value(label) : "",
             u && *u ? " (" : "", u && *u ? u : "", u && *u ? ")" : "");
    gs_csv_field(f, text);
}

/* A number, or nothing for a null (a point that was not measured). */
static void number_cell(FILE *f, const json_t *v)
{
    if (json_is_number(v))
        fprintf(f, "%.10g", json_number_value(v));
}

static int write_series(const char *path, const json_t *s, gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    const json_t *x = json_object_get(s, "x"), *y = json_object_get(s, "y");
    header_cell(out.f, json_object_get(s, "x_label"), json_object_get(s, "x_unit"));
    fputc(',', out.f);
    header_cell(out.f, json_object_get(s, "y_label"), json_object_get(s, "y_unit"));
    fputc('\n', out.f);
    for (size_t i = 0; i < json_array_size(x) && i < json_array_size(y); i++) {
        number_cell(out.f, json_array_get(x, i));
        fputc(',', out.f);
        number_cell(out.f, json_array_get(y, i));
        fputc('\n', out.f);
    }
    return gs_outfile_commit(&out, err);
}

/* Base names stay within what a file name holds with ".csv", ".png" or a temporary suffix. */
#define BASE_MAX 180

/* Whether base was given to an earlier series of this document (names that differ only in
 * characters made '_', a probe run twice): then it gets "-2", "-3"... */
static bool taken(json_t *used, const char *base)
{
    return json_object_get(used, base) != NULL;
}

static void unique_name(json_t *used, char *base, size_t len)
{
    if (strlen(base) > BASE_MAX)
        base[BASE_MAX] = '\0';
    char stem[BASE_MAX + 1];
    memcpy(stem, base, strlen(base) + 1);
    for (int k = 2; taken(used, base) && len > BASE_MAX + 12; k++)
        snprintf(base, len, "%.180s-%d", stem, k);
    json_object_set_new(used, base, json_true());
}

int gs_report_each_series(const json_t *doc, const char *dir, bool numbered, gs_series_fn fn,
                          void *ctx, gs_error *err)
{
    int rc = gs_outdir_make(dir, err);
    if (rc)
        return rc;
    json_t *used = json_object();
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *level = json_string_value(json_object_get(json_object_get(p, "params"), "level"));
        char number[24] = "";
        if (numbered)
            snprintf(number, sizeof number, "%zu-", i);
        const char *sname;
        json_t *s;
        json_object_foreach(json_object_get(p, "series"), sname, s) {
            char base[256];
            snprintf(base, sizeof base, "%s%s%s%s-%s", number,
                     json_string_value(json_object_get(p, "name")), level ? "-" : "",
                     level ? level : "", sname);
            safe_name(base);
            unique_name(used, base, sizeof base);
            if ((rc = fn(dir, base, s, ctx, err))) {
                json_decref(used);
                return rc;
            }
        }
    }
    json_decref(used);
    return 0;
}

static int csv_one(const char *dir, const char *base, const json_t *series, void *ctx, gs_error *err)
{
    (void)ctx;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.csv", dir, base);
    return write_series(path, series, err);
}

int gs_report_csv(const json_t *doc, const char *dir, gs_error *err)
{
    return gs_report_each_series(doc, dir, false, csv_one, NULL, err);
}
