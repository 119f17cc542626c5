/* libFuzzer target: plot's gnuplot script writer (gs_plot_script) for every series of a result
 * document, with a property oracle: the script is exactly the fixed command lines, each document
 * string inside one gnuplot single-quoted string (no quote, newline or control character inside;
 * a quote only as the '."'".' join of gs_gnuplot_quote), so no text from a document is read as a
 * gnuplot command. Run on the document and its canary copy (oracle.h).
 * Seeds: tests/fuzz/corpus/report/; dictionary: document.dict.
 * usage: fuzz_plot [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <regex.h>
#include <stdint.h>
#include <unistd.h>

#include "oracle.h"

#define Q "'[^'\x01-\x1f\x7f]*'(\\.\"'\"\\.'[^'\x01-\x1f\x7f]*')*"
/* A tick: a label of digits and a binary unit, formatted by plot.c, at a number. */
#define TICK "\"[-0-9.e+]+ (B|KiB|MiB|GiB|TiB|PiB)\" [-0-9.e+]+"
static const char *const patterns[] = {
    "^set terminal png size 900,560$", "^set output " Q "$", "^set title " Q " noenhanced$",
    "^set xlabel " Q " noenhanced$", "^set ylabel " Q " noenhanced$", "^set grid$",
    "^set logscale x 2$", "^set yrange \\[0:\\*\\]$",
    "^set [xy]tics \\(" TICK "(, " TICK ")*\\)$",
    "^plot " Q " using 1:2 with linespoints lc 1 pt 7 ps 0.6 notitle$", NULL,
};
static regex_t compiled[sizeof patterns / sizeof *patterns];
static char plot_dir[64];   /* the series walk makes its folder; nothing is written into it */

static void remove_dir(void)
{
    rmdir(plot_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t i = 0; patterns[i]; i++)
        if (regcomp(&compiled[i], patterns[i], REG_EXTENDED | REG_NOSUB) != 0)
            abort();
    snprintf(plot_dir, sizeof plot_dir, "%s", "/tmp/gs-fuzz-plot-XXXXXX");
    if (!mkdtemp(plot_dir))
        abort();
    atexit(remove_dir);
    return 0;
}

static int check_series(const char *dir, const char *base, const json_t *series, void *ctx,
                        gs_error *err)
{
    (void)dir;
    (void)ctx;
    (void)err;
    sink s;
    sink_open(&s);
    gs_plot_script(s.f, base, series, 1, 1000);
    sink_close(&s);
    for (char *line = s.text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (!next)
            oracle_fail("a script line without its newline", "gnuplot", s.text,
                        (size_t)(line - s.text));
        *next++ = '\0';
        bool known = false;
        for (size_t i = 0; patterns[i] && !known; i++)
            known = regexec(&compiled[i], line, 0, NULL, 0) == 0;
        if (!known)
            oracle_fail("a line that is not one of the script's commands", "gnuplot", s.text,
                        (size_t)(line - s.text));
    }
    sink_free(&s);
    return 0;
}

static void check(const json_t *doc, bool canary)
{
    (void)canary;
    gs_error err;
    gs_report_each_series(doc, plot_dir, true, check_series, NULL, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_document(data, size, check);
}
