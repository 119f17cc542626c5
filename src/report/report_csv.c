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

/* A CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. */
static void csv_field(FILE *f, const char *text)
{
    text = text ? text : "";
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', f);
        fputc(*text, f);
    }
    fputc('"', f);
}

/* A number, or an empty field for null (not a made-up 0). */
static void csv_number(FILE *f, const json_t *v)
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
    csv_field(out.f, json_string_value(json_object_get(s, "x_label")));
    fputc(',', out.f);
    csv_field(out.f, json_string_value(json_object_get(s, "y_label")));
    fputc('\n', out.f);
    for (size_t i = 0; i < json_array_size(x) && i < json_array_size(y); i++) {
        csv_number(out.f, json_array_get(x, i));
        fputc(',', out.f);
        csv_number(out.f, json_array_get(y, i));
        fputc('\n', out.f);
    }
    return gs_outfile_commit(&out, err);
}

int gs_report_each_series(const json_t *doc, const char *dir, bool numbered, gs_series_fn fn,
                          void *ctx, gs_error *err)
{
    int rc = gs_outdir_make(dir, err);
    if (rc)
        return rc;
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
            if ((rc = fn(dir, base, s, ctx, err)))
                return rc;
        }
    }
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
