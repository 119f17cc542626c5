/* Plots of a result document's series through gnuplot (DESIGN.md, Output): one PNG per series,
 * with the data file and the gnuplot script beside it so a user can restyle it. By default only
 * the series people look for are drawn (the random walk's staircases, the caches' average-mode
 * sweeps, bandwidth against footprint, the roofline per instruction type, the bank sweeps, the
 * clock), with what was measured alongside drawn over them (the bank sweep's 95% intervals as
 * error bars and its fit, the roofline's pipeline model, the walk's Eq. 6 curve); all of them on
 * request. Byte axes are labelled in KiB/MiB/GiB at powers of two, a few
 * ticks apart, and the y axis starts at zero unless a value is negative. Nothing is measured:
 * the plots are made from the JSON alone.
 * No shell is involved: gnuplot is started with an argument vector, in the plot folder, on a
 * script whose file names are the file-safe base names (letters, digits, '-', '_', '.'). Text from
 * the document (probe and series names, labels, units) reaches the script only as gnuplot
 * single-quoted strings, inside which gnuplot does no backquote, macro or escape substitution
 * (checked with gnuplot 5.4: tests/report/test_plot.c), and control characters become spaces so a
 * string cannot start a new command line. A quote in the text is joined in as "'" ('it'."'".'s'):
 * gnuplot's own '' doubling fails next to another quote ('''' and 'x''''y' are read as two
 * strings), which would let the rest of the text be read as commands. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "util/outfile.h"

#define GNUPLOT_OUTPUT_MAX 512
#define GS_PLOT_MAX_TICKS 24

void gs_gnuplot_quote(FILE *f, const char *text)
{
    fputc('\'', f);
    for (const unsigned char *s = (const unsigned char *)(text ? text : ""); *s; s++) {
        if (*s == '\'')
            fputs("'.\"'\".'", f);                    /* 'it'."'".'s': see the file comment */
        else if (*s < 0x20 || *s == 0x7f)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* "label [unit]" as one quoted string. */
static void quote_axis(FILE *f, const json_t *s, const char *label_key, const char *unit_key)
{
    const char *label = json_string_value(json_object_get(s, label_key));
    const char *unit = json_string_value(json_object_get(s, unit_key));
    size_t len = strlen(label ? label : "") + strlen(unit ? unit : "") + 4;
    char *text = malloc(len);
    if (text)
        snprintf(text, len, "%s [%s]", label ? label : "", unit ? unit : "");
    gs_gnuplot_quote(f, text ? text : "");
    free(text);
}

typedef struct extent {
    double xlo, xhi, ylo, yhi;
} extent;

/* What is drawn over a series: its 95% half-widths (index for index) as error bars and a fit
 * or model as a dashed line, each NULL when the document has none. */
typedef struct overlay {
    const json_t *ci95;
    json_t *fit;             /* owned */
    const char *fit_title;   /* this file's own text */
} overlay;

static int write_data(const char *path, const json_t *s, const json_t *ci95, extent *e,
                      gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    const json_t *x = json_object_get(s, "x"), *y = json_object_get(s, "y");
    bool first = true;
    for (size_t i = 0; i < json_array_size(x) && i < json_array_size(y); i++) {
        const json_t *xv = json_array_get(x, i), *yv = json_array_get(y, i);
        if (!json_is_number(xv) || !json_is_number(yv))
            continue;                                /* null: no point, not a made-up 0 */
        double v = json_number_value(xv), w = json_number_value(yv);
        const json_t *h = json_array_get(json_object_get(ci95, "y"), i);
        if (ci95)
            fprintf(out.f, "%.10g %.10g %.10g\n", v, w, json_is_number(h) ? json_number_value(h)
                                                                         : 0.0);
        else
            fprintf(out.f, "%.10g %.10g\n", v, w);
        e->xlo = first || v < e->xlo ? v : e->xlo;
        e->xhi = first || v > e->xhi ? v : e->xhi;
        e->ylo = first || w < e->ylo ? w : e->ylo;
        e->yhi = first || w > e->yhi ? w : e->yhi;
        first = false;
    }
    return gs_outfile_commit(&out, err);
}

static bool is_bytes(const json_t *s, const char *key)
{
    const char *u = json_string_value(json_object_get(s, key));
    return u && (strcmp(u, "B") == 0 || strcmp(u, "bytes") == 0);
}

/* A size in binary units for a tick label: "512 B", "16 KiB", "1.5 MiB". */
static void binary_label(double v, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (fabs(v) >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.4g %s", v, units[u]);
}

/* "set Xtics (...)" with binary labels: on a log axis every k-th power of two (k of 1, 2, 4 or
 * a multiple of 10, so that at most 8 show), on a linear one 1, 2 or 5 binary units apart. Labels are numbers
 * formatted here, never text from the document. */
static void byte_tics(FILE *f, char axis, double lo, double hi, bool log_axis)
{
    double ticks[GS_PLOT_MAX_TICKS];
    int n = 0;
    if (log_axis) {
        double e0 = ceil(log2(lo)), e1 = floor(log2(hi));
        double k = ceil((e1 - e0 + 1) / 8);
        k = k <= 1 ? 1 : k <= 2 ? 2 : k <= 4 ? 4 : 10 * ceil(k / 10);
        e0 = ceil(e0 / k) * k;             /* 4 KiB, 64 KiB, 1 MiB; 1 KiB, 1 MiB, 1 GiB */
        for (double e = e0; e <= e1 && n < GS_PLOT_MAX_TICKS; e += k)
            ticks[n++] = exp2(e);
    } else {
        double span = hi - lo, unit = 1;
        while (span / unit >= 1024 && unit < 1e18)
            unit *= 1024;
        double raw = span / unit / 6, mag = raw > 0 ? pow(10, floor(log10(raw))) : 1;
        double step = (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10) * mag
                      * unit;
        for (double v = ceil(lo / step) * step; step > 0 && v <= hi && n < GS_PLOT_MAX_TICKS;
             v += step)
            ticks[n++] = v;
    }
    if (n == 0 || !isfinite(lo) || !isfinite(hi))
        return;
    fprintf(f, "set %ctics (", axis);
    for (int i = 0; i < n; i++) {
        char label[48];
        binary_label(ticks[i], label, sizeof label);
        fprintf(f, "%s\"%s\" %.17g", i ? ", " : "", label, ticks[i]);
    }
    fputs(")\n", f);
}

/* One series' gnuplot script into f: its PNG, data file and any overlay named after base; every
 * document string in a single-quoted string (gs_gnuplot_quote), tick labels formatted here. */
static void script(FILE *f, const char *base, const json_t *s, const extent *e, const overlay *o)
{
    char file[300];
    fprintf(f, "set terminal png size 900,560\nset output ");
    snprintf(file, sizeof file, "%s.png", base);
    gs_gnuplot_quote(f, file);
    /* The title says what is plotted, from the series' own labels; the file's name follows. */
    char title[600];
    const char *yl = json_string_value(json_object_get(s, "y_label"));
    const char *xl = json_string_value(json_object_get(s, "x_label"));
    snprintf(title, sizeof title, "%s against %s (%s)", yl ? yl : "y", xl ? xl : "x", base);
    fprintf(f, "\nset title ");
    gs_gnuplot_quote(f, title);
    fprintf(f, " noenhanced\nset xlabel ");
    quote_axis(f, s, "x_label", "x_unit");
    fprintf(f, " noenhanced\nset ylabel ");
    quote_axis(f, s, "y_label", "y_unit");
    /* A log x axis where x spans more than two decades and is positive (size sweeps). */
    bool log_x = e->xlo > 0 && e->xhi / e->xlo > 100;
    fprintf(f, " noenhanced\nset grid\n%s", log_x ? "set logscale x 2\n" : "");
    if (is_bytes(s, "x_unit"))
        byte_tics(f, 'x', e->xlo, e->xhi, log_x);
    if (is_bytes(s, "y_unit"))
        byte_tics(f, 'y', e->ylo >= 0 ? 0 : e->ylo, e->yhi, false);
    /* From zero unless a value is negative: noise is not drawn as a step. */
    if (e->ylo >= 0)
        fprintf(f, "set yrange [0:*]\n");
    bool titled = o->ci95 || o->fit;
    if (titled)   /* the legend between the title and the axes: it never covers the curve */
        fputs("set key tmargin center horizontal\n", f);
    fprintf(f, "plot ");
    if (o->fit) {  /* first, so the measured points are drawn over it */
        snprintf(file, sizeof file, "%s-fit.dat", base);
        gs_gnuplot_quote(f, file);
        fprintf(f, " using 1:2 with lines lc 7 dt 2 lw 2 title '%s', ", o->fit_title);
    }
    snprintf(file, sizeof file, "%s.dat", base);
    gs_gnuplot_quote(f, file);
    fprintf(f, " using 1:2 with linespoints lc 1 pt 7 ps 0.6 %s",
            titled ? "title 'measured'" : "notitle");
    if (o->ci95) {
        fputs(", ", f);
        gs_gnuplot_quote(f, file);
        fputs(" using 1:2:3 with yerrorbars lc 1 pt 0 title '95% interval'", f);
    }
    fputc('\n', f);
}

void gs_plot_script(FILE *f, const char *base, const json_t *s, double lo, double hi)
{
    extent e = {lo, hi, 0, 1};
    overlay o = {NULL, NULL, NULL};
    size_t i;
    json_t *y;
    json_array_foreach(json_object_get(s, "y"), i, y) {
        double v = json_number_value(y);
        if (json_is_number(y) && isfinite(v)) {
            e.ylo = v < e.ylo ? v : e.ylo;
            e.yhi = v > e.yhi ? v : e.yhi;
        }
    }
    script(f, base, s, &e, &o);
}

static int write_script(const char *path, const char *base, const json_t *s, const extent *e,
                        const overlay *o, gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    script(out.f, base, s, e, o);
    return gs_outfile_commit(&out, err);
}

/* The child: run gnuplot on script in dir, its output into the pipe. Never returns. */
static void exec_gnuplot(const char *dir, const char *script, int out_fd)
{
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    if (chdir(dir) != 0) {
        dprintf(STDERR_FILENO, "cannot enter '%s': %s", dir, strerror(errno));
        _exit(126);
    }
    signal(SIGPIPE, SIG_DFL);                    /* gpusonar ignores it; gnuplot need not */
    const char *program = getenv("GS_GNUPLOT");
    char *const argv[] = {(char *)(program && *program ? program : "gnuplot"), (char *)script,
                          NULL};
    execvp(argv[0], argv);
    dprintf(STDERR_FILENO, "cannot run %s: %s", argv[0], strerror(errno));
    _exit(127);
}

int gs_gnuplot_run(const char *dir, const char *script, gs_error *err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return gs_fail(err, GS_ERR_IO, "cannot start gnuplot: %s", strerror(errno));
    fflush(NULL);                                    /* no buffered output written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return gs_fail(err, GS_ERR_IO, "cannot start gnuplot: %s", strerror(e));
    }
    if (pid == 0)
        exec_gnuplot(dir, script, fds[1]);
    close(fds[1]);
    char text[GNUPLOT_OUTPUT_MAX] = "";
    size_t got = 0;
    for (;;) {                                       /* keep the start, drain the rest */
        char buf[256];
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t keep = sizeof text - 1 - got < (size_t)n ? sizeof text - 1 - got : (size_t)n;
        memcpy(text + got, buf, keep);
        got += keep;
    }
    close(fds[0]);
    text[got] = '\0';
    for (char *c = text; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    return gs_fail(err, GS_ERR_IO, "gnuplot failed on %s/%s (%s); is gnuplot installed "
                   "(scripts/setup.sh installs gnuplot-nox)?", dir, script,
                   got ? text : "no output");
}

static int write_one(const char *dir, const char *base, const json_t *s, const overlay *o,
                     gs_error *err)
{
    char dat[4200], fit[4200], gp[4200], script[300];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, base);
    snprintf(fit, sizeof fit, "%s/%s-fit.dat", dir, base);
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, base);
    snprintf(script, sizeof script, "./%s.gp", base);    /* "./": never read as an option */
    extent e = {0}, fe = {0};
    int rc = write_data(dat, s, o->ci95, &e, err);
    if (!rc && o->fit)
        rc = write_data(fit, o->fit, NULL, &fe, err);
    if (!rc)
        rc = write_script(gp, base, s, &e, o, err);
    if (!rc)
        rc = gs_gnuplot_run(dir, script, err);
    return rc;
}

/* The series people look for, by the names the probes give them. */
static bool curated(const char *probe, const char *name)
{
    size_t n = strlen(name);
    if (strcmp(probe, "random-walk") == 0)
        return n > 5 && strcmp(name + n - 5, "_walk") == 0;
    if (strcmp(probe, "cache") == 0)
        return strcmp(name, "average_sweep") == 0;
    if (strcmp(probe, "mem-bandwidth") == 0)
        return strncmp(name, "read_", 5) == 0 || strncmp(name, "write_", 6) == 0
               || strncmp(name, "copy_", 5) == 0;
    if (strcmp(probe, "roofline") == 0)
        return n > 14 && strcmp(name + n - 14, "_by_block_size") == 0;
    if (strcmp(probe, "smem-banks") == 0)
        return strncmp(name, "latency_w", 9) == 0;
    if (strcmp(probe, "clock") == 0)
        return strcmp(name, "frequency") == 0;
    return false;
}

typedef struct plot_ctx {
    const json_t *doc;
    bool all;
    int count;
} plot_ctx;

/* The record holding series (a value inside doc) and the series' name; NULL if none. */
static const json_t *record_of(const json_t *doc, const json_t *series, const char **name)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *key;
        json_t *s;
        json_object_foreach(json_object_get(p, "series"), key, s)
            if (s == series) {
                *name = key;
                return p;
            }
    }
    return NULL;
}

static const json_t *sibling(const json_t *rec, const char *prefix, const char *rest, size_t len)
{
    char key[256];
    snprintf(key, sizeof key, "%s%.*s", prefix, (int)len, rest);
    const json_t *s = json_object_get(json_object_get(rec, "series"), key);
    return json_array_size(json_object_get(s, "x")) > 0 ? s : NULL;
}

/* What the probes measured alongside a curated series: the bank sweep's intervals and fit
 * (latency_wN: latency_ci95_wN, fit_wN), the roofline's pipeline model (T_by_block_size:
 * T_model), the random walk's Eq. 6 curve (S_walk: the S_ fit figures). */
static overlay overlay_of(const json_t *rec, const char *probe, const char *name,
                          const json_t *series)
{
    overlay o = {0};
    size_t n = strlen(name);
    if (strcmp(probe, "smem-banks") == 0 && strncmp(name, "latency_w", 9) == 0) {
        o.ci95 = sibling(rec, "latency_ci95_", name + 8, n - 8);
        const json_t *fit = sibling(rec, "fit_", name + 8, n - 8);
        o.fit = fit ? json_incref((json_t *)fit) : NULL;
        o.fit_title = "bank model fit";
    } else if (strcmp(probe, "roofline") == 0 && n > 14
               && strcmp(name + n - 14, "_by_block_size") == 0) {
        char model[256];
        snprintf(model, sizeof model, "%.*s_model", (int)(n - 14), name);
        const json_t *fit = sibling(rec, "", model, strlen(model));
        o.fit = fit ? json_incref((json_t *)fit) : NULL;
        o.fit_title = "pipeline model";
    } else if (strcmp(probe, "random-walk") == 0 && n > 5 && strcmp(name + n - 5, "_walk") == 0) {
        char space[64];
        snprintf(space, sizeof space, "%.*s", (int)(n - 5), name);
        o.fit = gs_report_eq6_curve(rec, series, space);
        o.fit_title = "Eq. 6 fit";
    }
    return o;
}

static int plot_one(const char *dir, const char *base, const json_t *series, void *ctx,
                    gs_error *err)
{
    plot_ctx *c = ctx;
    const char *name = "";
    const json_t *rec = record_of(c->doc, series, &name);
    const char *probe = json_string_value(json_object_get(rec, "name"));
    probe = probe ? probe : "";
    if (!c->all && !curated(probe, name))
        return 0;
    overlay o = overlay_of(rec, probe, name, series);
    int rc = write_one(dir, base, series, &o, err);
    json_decref(o.fit);
    if (!rc)
        c->count++;
    return rc;
}

int gs_report_plots(const json_t *doc, const char *dir, bool all, int *count, gs_error *err)
{
    plot_ctx c = {.doc = doc, .all = all};
    int rc = gs_report_each_series(doc, dir, true, plot_one, &c, err);
    *count = c.count;
    return rc;
}
