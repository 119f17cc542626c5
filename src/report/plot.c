/* Plots of a result document's series through gnuplot (DESIGN.md, Output): one PNG per series,
 * with the data file and the gnuplot script beside it so a user can restyle it. Nothing is
 * measured: the plots are made from the JSON alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"

/* Quote s for a gnuplot double-quoted string (drop characters that would end it). */
static void gp_text(char *dst, size_t len, const char *s)
{
    size_t j = 0;
    for (; s && *s && j + 1 < len; s++)
        if (*s != '"' && *s != '\\' && *s != '\n')
            dst[j++] = *s;
    dst[j] = '\0';
}

static int write_one(const char *dir, const char *base, const json_t *s, gs_error *err)
{
    char dat[1200], gp[1200], png[1200];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, base);
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, base);
    snprintf(png, sizeof png, "%s/%s.png", dir, base);
    FILE *f = fopen(dat, "w");
    if (!f)
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", dat, strerror(errno));
    const json_t *x = json_object_get(s, "x"), *y = json_object_get(s, "y");
    for (size_t i = 0; i < json_array_size(x) && i < json_array_size(y); i++)
        fprintf(f, "%.10g %.10g\n", json_number_value(json_array_get(x, i)),
                json_number_value(json_array_get(y, i)));
    fclose(f);
    char title[256], xl[128], yl[128];
    gp_text(title, sizeof title, base);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s [%s]", json_string_value(json_object_get(s, "x_label")),
             json_string_value(json_object_get(s, "x_unit")));
    gp_text(xl, sizeof xl, tmp);
    snprintf(tmp, sizeof tmp, "%s [%s]", json_string_value(json_object_get(s, "y_label")),
             json_string_value(json_object_get(s, "y_unit")));
    gp_text(yl, sizeof yl, tmp);
    f = fopen(gp, "w");
    if (!f)
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", gp, strerror(errno));
    /* A log x axis where x spans more than two decades and is positive (size sweeps). */
    double lo = 0, hi = 0;
    for (size_t i = 0; i < json_array_size(x); i++) {
        double v = json_number_value(json_array_get(x, i));
        if (i == 0 || v < lo)
            lo = v;
        if (i == 0 || v > hi)
            hi = v;
    }
    fprintf(f, "set terminal png size 900,560\nset output '%s.png'\nset title \"%s\" noenhanced\n"
               "set xlabel \"%s\" noenhanced\nset ylabel \"%s\" noenhanced\nset grid\n%s"
               "plot '%s.dat' using 1:2 with linespoints pt 7 ps 0.6 notitle\n",
            base, title, xl, yl, lo > 0 && hi / lo > 100 ? "set logscale x 2\n" : "", base);
    fclose(f);
    char cmd[2600];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp' 2>&1", dir, base);
    FILE *p = popen(cmd, "r");
    char out[512] = "";
    size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[got] = '\0';
    int status = p ? pclose(p) : -1;
    if (status != 0)
        return gs_fail(err, GS_ERR_IO, "gnuplot failed on %s (%s); is gnuplot installed "
                       "(scripts/setup.sh installs gnuplot-nox)?", gp, got ? out : "no output");
    return 0;
}

static int plot_one(const char *dir, const char *base, const json_t *series, void *ctx,
                    gs_error *err)
{
    int rc = write_one(dir, base, series, err);
    if (!rc)
        (*(int *)ctx)++;
    return rc;
}

int gs_report_plots(const json_t *doc, const char *dir, int *count, gs_error *err)
{
    *count = 0;
    return gs_report_each_series(doc, dir, true, plot_one, count, err);
}
