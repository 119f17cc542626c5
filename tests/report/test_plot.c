/* Tests of src/report/plot.c: text from a hostile document (probe, level and series names, labels
 * and units holding backquotes, quotes, newlines, system("..."), ';touch X;') and a hostile plot
 * folder name never runs a command, and the plots are still drawn; gnuplot's own quoting is
 * checked against the real gnuplot; by default only the curated series are drawn, byte axes with
 * binary tick labels and y from zero (--all draws every series). Needs gnuplot (scripts/setup.sh installs gnuplot-nox). */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gs_test.h"

#include "report/report.h"

static char root[64];

static int make_root(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/gs_plot_XXXXXX");
    assert_non_null(mkdtemp(root));
    return 0;
}

static int remove_root(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", root, (char *)NULL);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    return 0;
}

/* Count files named "mark*" in folder (the hostile strings all try to create one). */
static int marks_in(const char *folder)
{
    DIR *d = opendir(folder);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, "mark", 4) == 0;
    closedir(d);
    return n;
}

static int pngs_in(const char *folder)
{
    DIR *d = opendir(folder);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += len > 4 && strcmp(e->d_name + len - 4, ".png") == 0;
    }
    closedir(d);
    return n;
}

static json_t *hostile_document(void)
{
    json_t *series = json_pack(
        "{s:{s:s, s:s, s:s, s:s, s:[i,i,i], s:[f,n,f]},"
        " s:{s:s, s:s, s:s, s:s, s:[i,i], s:[i,i]}}",
        "s';system('touch mark2');'",
        "x_label", "x`touch mark3`", "x_unit", "\"; system(\"touch mark4\"); \"",
        "y_label", "line\nsystem('touch mark5')\nprint '", "y_unit", "`touch mark6` @x ''",
        "x", 1, 2, 4, "y", 1.5, 2.5,
        "plain", "x_label", "a\\", "x_unit", "'", "y_label", "'\r\n!touch mark7\n",
        "y_unit", "B", "x", 1, 1000, "y", 3, 4);
    return json_pack("{s:s, s:[{s:s, s:{s:s}, s:{}, s:o, s:s, s:[]}]}", "schema", "gpusonar/1",
                     "probes", "name", "p`touch mark1`", "params", "level", "l$(touch mark8)",
                     "figures", "series", series, "status", "ok", "warnings");
}

static void hostile_text_runs_nothing(void **state)
{
    (void)state;
    char cwd[PATH_MAX], out[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(root), 0);          /* a shell's `touch mark` would land here */
    snprintf(out, sizeof out, "%s/q';touch mark9;'`touch mark10`", root);
    json_t *doc = hostile_document();
    assert_non_null(doc);
    int count = 0;
    gs_error err;
    gs_error_clear(&err);
    int rc = gs_report_plots(doc, out, true, &count, &err);
    json_decref(doc);
    assert_int_equal(chdir(cwd), 0);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(count, 2);
    assert_int_equal(pngs_in(out), 2);
    assert_int_equal(marks_in(root), 0);
    assert_int_equal(marks_in(out), 0);
}

/* Every quoted string read back by gnuplot itself is the text it was given (less control
 * characters), and nothing inside it ran. */
static void quoted_strings_survive_gnuplot(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "`touch mark1`", "it's", "''", "a\\", "@macro", "system(\"touch mark2\")",
        "'; system('touch mark3'); '", "\"`touch mark4`\"", "tab\there", "'''", "x''''y",
        "a'''; system('touch mark5') #", "'`touch mark6`'",
    };
    char script[PATH_MAX], result[PATH_MAX];
    snprintf(script, sizeof script, "%s/q.gp", root);
    snprintf(result, sizeof result, "%s/out.txt", root);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "set print 'out.txt'\n");
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        fprintf(f, "print ");
        gs_gnuplot_quote(f, texts[i]);
        fprintf(f, "\n");
    }
    fclose(f);
    gs_error err;
    if (gs_gnuplot_run(root, "./q.gp", &err))
        fail_msg("%s", err.msg);
    f = fopen(result, "r");
    assert_non_null(f);
    char line[256];
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        line[strcspn(line, "\n")] = '\0';
        char want[64];
        snprintf(want, sizeof want, "%s", texts[i]);
        for (char *c = want; *c; c++)
            *c = *c == '\t' ? ' ' : *c;
        assert_string_equal(line, want);
    }
    fclose(f);
    assert_int_equal(marks_in(root), 0);
}

static void failures_are_reported(void **state)
{
    (void)state;
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s/bad.gp", root);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "this is not gnuplot\n");
    fclose(f);
    gs_error err;
    assert_int_equal(gs_gnuplot_run(root, "./bad.gp", &err), GS_ERR_IO);
    assert_non_null(strstr(err.msg, "bad.gp"));
    setenv("GS_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(gs_gnuplot_run(root, "./bad.gp", &err), GS_ERR_IO);
    unsetenv("GS_GNUPLOT");
    assert_non_null(strstr(err.msg, "cannot run /nonexistent/gnuplot"));
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The cache's average-mode sweep is curated, a pipeline series is not: one plot, then two with
 * all; the sweep's x ticks are binary sizes at powers of two, a few apart, and y starts at 0. */
static void curated_plots_and_byte_ticks(void **state)
{
    (void)state;
    json_t *doc = json_pack(
        "{s:s, s:[{s:s, s:{s:s}, s:{}, s:{s:{s:s, s:s, s:s, s:s, s:[i,i,i,i,i], s:[f,f,f,f,f]}},"
        " s:s, s:[]}, {s:s, s:{}, s:{s:{s:[i,i], s:[i,i]}}, s:s, s:[]}]}",
        "schema", "gpusonar/1", "probes",
        "name", "cache", "params", "level", "l1", "figures", "series", "average_sweep",
        "x_label", "footprint", "x_unit", "B", "y_label", "latency", "y_unit", "cycles",
        "x", 4096, 65536, 1048576, 16777216, 268435456, "y", 30.0, 31.0, 200.0, 210.0, 600.0,
        "status", "ok", "warnings",
        "name", "pipeline", "figures", "series", "fadd_ilp1_cpi", "x", 1, 2, "y", 3, 4,
        "status", "ok", "warnings");
    assert_non_null(doc);
    char out[PATH_MAX], all[PATH_MAX], gp[PATH_MAX + 64];
    snprintf(out, sizeof out, "%s/curated", root);
    snprintf(all, sizeof all, "%s/all", root);
    int count = 0;
    gs_error err;
    gs_error_clear(&err);
    if (gs_report_plots(doc, out, false, &count, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(count, 1);
    assert_int_equal(pngs_in(out), 1);
    if (gs_report_plots(doc, all, true, &count, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(count, 2);
    assert_int_equal(pngs_in(all), 2);
    json_decref(doc);
    snprintf(gp, sizeof gp, "%s/0-cache-l1-average_sweep.gp", out);
    const char *script = read_text(gp);
    assert_non_null(strstr(script, "set xtics (\"4 KiB\" 4096, \"64 KiB\" 65536, \"1 MiB\" "
                                   "1048576, \"16 MiB\" 16777216, \"256 MiB\" 268435456)"));
    assert_non_null(strstr(script, "set yrange [0:*]"));
}

/* A curated series gets what was measured alongside it: the bank sweep its intervals as error
 * bars (a third data column) and its fit as a second line from its own data file; the fit and
 * interval series get no plot of their own. */
static void overlays_on_curated_plots(void **state)
{
    (void)state;
    json_t *doc = json_pack(
        "{s:s, s:[{s:s, s:{}, s:{s:{s:[i,i,i], s:[f,f,f]}, s:{s:[i,i,i], s:[f,f,f]},"
        " s:{s:[i,i,i], s:[f,f,f]}}, s:s, s:[]}]}",
        "schema", "gpusonar/1", "probes", "name", "smem-banks", "figures", "series",
        "latency_w4", "x", 1, 2, 3, "y", 20.0, 22.0, 24.0,
        "latency_ci95_w4", "x", 1, 2, 3, "y", 0.5, 0.0, 1.5,
        "fit_w4", "x", 1, 2, 3, "y", 20.1, 22.0, 23.9, "status", "ok", "warnings");
    assert_non_null(doc);
    char out[PATH_MAX], path[PATH_MAX + 64];
    snprintf(out, sizeof out, "%s/banks", root);
    int count = 0;
    gs_error err;
    gs_error_clear(&err);
    if (gs_report_plots(doc, out, false, &count, &err))
        fail_msg("%s", err.msg);
    json_decref(doc);
    assert_int_equal(count, 1);
    snprintf(path, sizeof path, "%s/0-smem-banks-latency_w4.dat", out);
    assert_string_equal(read_text(path), "1 20 0.5\n2 22 0\n3 24 1.5\n");
    snprintf(path, sizeof path, "%s/0-smem-banks-latency_w4-fit.dat", out);
    assert_string_equal(read_text(path), "1 20.1\n2 22\n3 23.9\n");
    snprintf(path, sizeof path, "%s/0-smem-banks-latency_w4.gp", out);
    const char *script = read_text(path);
    assert_non_null(strstr(script, "using 1:2:3 with yerrorbars"));
    assert_non_null(strstr(script, "'0-smem-banks-latency_w4-fit.dat' using 1:2 with lines"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hostile_text_runs_nothing, make_root, remove_root),
        cmocka_unit_test_setup_teardown(quoted_strings_survive_gnuplot, make_root, remove_root),
        cmocka_unit_test_setup_teardown(failures_are_reported, make_root, remove_root),
        cmocka_unit_test_setup_teardown(curated_plots_and_byte_ticks, make_root, remove_root),
        cmocka_unit_test_setup_teardown(overlays_on_curated_plots, make_root, remove_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
