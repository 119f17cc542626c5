/* Plots of a result document's series through gnuplot (DESIGN.md, Output): one PNG per series,
 * with the data file and the gnuplot script beside it so a user can restyle it. Nothing is
 * measured: the plots are made from the JSON alone.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "util/outfile.h"

#define GNUPLOT_OUTPUT_MAX 512

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

static int write_data(const char *path, const json_t *s, double *lo, double *hi, gs_error *err)
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
        double v = json_number_value(xv);
        fprintf(out.f, "%.10g %.10g\n", v, json_number_value(yv));
        *lo = first || v < *lo ? v : *lo;
        *hi = first || v > *hi ? v : *hi;
        first = false;
    }
    return gs_outfile_commit(&out, err);
}

void gs_plot_script(FILE *f, const char *base, const json_t *s, double lo, double hi)
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
    fprintf(f, " noenhanced\nset grid\n%splot ", lo > 0 && hi / lo > 100 ?
            "set logscale x 2\n" : "");
    snprintf(file, sizeof file, "%s.dat", base);
    gs_gnuplot_quote(f, file);
    fprintf(f, " using 1:2 with linespoints pt 7 ps 0.6 notitle\n");
}

static int write_script(const char *path, const char *base, const json_t *s, double lo, double hi,
                        gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    gs_plot_script(out.f, base, s, lo, hi);
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

static int write_one(const char *dir, const char *base, const json_t *s, gs_error *err)
{
    char dat[4200], gp[4200], script[300];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, base);
    snprintf(gp, sizeof gp, "%s/%s.gp", dir, base);
    snprintf(script, sizeof script, "./%s.gp", base);    /* "./": never read as an option */
    double lo = 0, hi = 0;
    int rc = write_data(dat, s, &lo, &hi, err);
    if (!rc)
        rc = write_script(gp, base, s, lo, hi, err);
    if (!rc)
        rc = gs_gnuplot_run(dir, script, err);
    return rc;
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
