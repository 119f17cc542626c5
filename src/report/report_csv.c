/* CSV files of every series in a result document (--csv DIR). */
#include "report/report.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

/* Keep names file-safe: letters, digits, '-', '_' and '.'; anything else becomes '_'. */
static void safe_name(char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            *s = '_';
}

static int write_series(const char *path, const json_t *s, gs_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s; check --csv DIR", path,
                       strerror(errno));
    const json_t *x = json_object_get(s, "x"), *y = json_object_get(s, "y");
    fprintf(f, "%s,%s\n", json_string_value(json_object_get(s, "x_label")),
            json_string_value(json_object_get(s, "y_label")));
    for (size_t i = 0; i < json_array_size(x) && i < json_array_size(y); i++)
        fprintf(f, "%.10g,%.10g\n", json_number_value(json_array_get(x, i)),
                json_number_value(json_array_get(y, i)));
    if (fclose(f))
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    return 0;
}

int gs_report_each_series(const json_t *doc, const char *dir, bool numbered, gs_series_fn fn,
                          void *ctx, gs_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return gs_fail(err, GS_ERR_IO, "cannot create folder '%s': %s", dir, strerror(errno));
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
            int rc = fn(dir, base, s, ctx, err);
            if (rc)
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
