/* Tests of src/util/input.c: a file is read whole with a UTF-8 byte-order mark skipped; a FIFO is
 * read as it comes; a folder, a device, a missing file and a dangling link are refused with a
 * message saying what they are; an output of the run cannot be read as an input. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gs_test.h"

#include "util/input.h"
#include "util/outfile.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    gs_claims_reset();
    snprintf(dir, sizeof dir, "/tmp/gs_input_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", dir, (char *)NULL);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    gs_claims_reset();
    return 0;
}

static void put(const char *name, const char *text, size_t len, char *path)
{
    snprintf(path, PATH_MAX, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void refused(const char *path, const char *needle)
{
    char *text = NULL;
    size_t len = 0;
    gs_error err;
    int rc = gs_input_read(path, "result document", &text, &len, &err);
    if (rc != GS_ERR_INPUT || !strstr(err.msg, needle) || !strstr(err.msg, path))
        fail_msg("rc %d, message '%s'; wanted '%s' and the path", rc, err.msg, needle);
    assert_null(text);
}

static void reads_whole_files(void **state)
{
    (void)state;
    char path[PATH_MAX], *text;
    size_t len;
    gs_error err;
    put("plain.json", "{\"a\": 1}", 8, path);
    assert_int_equal(gs_input_read(path, "result document", &text, &len, &err), 0);
    assert_int_equal(len, 8);
    assert_string_equal(text, "{\"a\": 1}");
    free(text);
    put("bom.json", "\xEF\xBB\xBF{}", 5, path);
    assert_int_equal(gs_input_read(path, "result document", &text, &len, &err), 0);
    assert_int_equal(len, 2);
    assert_string_equal(text, "{}");
    free(text);
}

static void fifo_is_read(void **state)
{
    (void)state;
    char path[PATH_MAX], *text;
    size_t len;
    gs_error err;
    snprintf(path, sizeof path, "%s/pipe", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = fopen(path, "w");
        fputs("[1, 2]", f);
        fclose(f);
        _exit(0);
    }
    assert_int_equal(gs_input_read(path, "result document", &text, &len, &err), 0);
    assert_string_equal(text, "[1, 2]");
    free(text);
    waitpid(pid, NULL, 0);
}

static void what_it_is(void **state)
{
    (void)state;
    char path[PATH_MAX], link[PATH_MAX];
    refused(dir, "is a folder");
    refused("/dev/zero", "character device");
    snprintf(path, sizeof path, "%s/none.json", dir);
    refused(path, "No such file");
    snprintf(link, sizeof link, "%s/dangling.json", dir);
    assert_int_equal(symlink(path, link), 0);
    refused(link, "a link to");
}

static void outputs_are_not_inputs(void **state)
{
    (void)state;
    char path[PATH_MAX], *text = NULL;
    size_t len;
    gs_error err;
    put("doc.json", "{}", 2, path);
    assert_int_equal(gs_outfile_check(path, "-o", &err), 0);
    assert_int_equal(gs_input_read(path, "result document", &text, &len, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "-o"));
    assert_null(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reads_whole_files, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(fifo_is_read, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(what_it_is, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(outputs_are_not_inputs, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
