/* libFuzzer target: the result-document reader used by `report --from`, `compare` and `plot`
 * (gs_report_load_buffer) on arbitrary bytes, then every printer that consumes a document: the
 * text report, a comparison of the document with itself, the CSV files of its series (written
 * into a temporary folder, emptied after each input) and the walk over series that plotting
 * makes (without gnuplot). Seeds: tests/fuzz/corpus/document/; dictionary: document.dict.
 * usage: fuzz_document [libFuzzer options] [CORPUS_DIR...] */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

static FILE *sink;               /* /dev/null: the printers run, their text goes nowhere */
static char csv_dir[512];        /* mkdtemp folder, emptied after every input, removed at exit */

static void empty_csv_dir(void)
{
    DIR *d = opendir(csv_dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            char path[sizeof csv_dir + 300];
            snprintf(path, sizeof path, "%s/%s", csv_dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

static void remove_csv_dir(void)
{
    empty_csv_dir();
    rmdir(csv_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    /* under TMPDIR where set: the CSV writer syncs every file, which a memory-backed folder
     * answers at once, so that the inputs are not paced by a disk */
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(csv_dir, sizeof csv_dir, "%s/gs-fuzz-csv-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (n < 0 || (size_t)n >= sizeof csv_dir) {
        fprintf(stderr, "fuzz_document: TMPDIR is too long; set a shorter one\n");
        abort();
    }
    if (!sink || !mkdtemp(csv_dir)) {
        perror("fuzz_document: /dev/null or a temporary folder");
        abort();
    }
    atexit(remove_csv_dir);
    return 0;
}

/* What `plot` does for each series before it starts gnuplot: the file-safe base name. */
static int count_series(const char *dir, const char *base, const json_t *series, void *ctx,
                        gs_error *err)
{
    (void)dir;
    (void)series;
    (void)err;
    *(size_t *)ctx += strlen(base) > 0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *doc = NULL;
    gs_error err;
    if (gs_report_load_buffer((const char *)data, size, "fuzz.json", &doc, &err) != 0)
        return 0;
    gs_report_text(sink, doc);
    gs_compare_counts counts;
    gs_report_compare(sink, doc, doc, GS_COMPARE_TOLERANCE_PERCENT, &counts, &err);
    gs_report_csv(doc, csv_dir, &err);
    empty_csv_dir();
    size_t series = 0;
    gs_report_each_series(doc, csv_dir, true, count_series, &series, &err);
    json_decref(doc);
    return 0;
}
