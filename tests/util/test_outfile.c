/* Tests of src/util/outfile.c: a new or existing regular file is replaced atomically with its mode
 * kept; a FIFO, /dev/null and "-" are written in place; /dev/full is an error naming the path; a
 * link stays a link (to an existing or a missing target); and the checks before measuring refuse
 * missing folders, folders given as files, read-only files and unwritable folders without
 * creating anything; links of another user in a sticky world-writable folder are not followed,
 * another user's file there is refused before writing, names up to NAME_MAX bytes work, a FIFO
 * without a reader is refused, no output may be an input, and a signal removes the temporary
 * file. As root, the permission cases run under an unprivileged effective uid and the other
 * user is nobody (65534). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gs_test.h"

#include "util/interrupt.h"
#include "util/outfile.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    gs_claims_reset();                           /* each test is a run of its own */
    snprintf(dir, sizeof dir, "/tmp/gs_outfile_XXXXXX");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chmod(dir, 0777), 0);
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
    return 0;
}

static void in_dir(char *buf, const char *name)
{
    snprintf(buf, PATH_MAX, "%s/%s", dir, name);
}

static int write_text(const char *path, const char *text, gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    fputs(text, out.f);
    return gs_outfile_commit(&out, err);
}

static void read_back(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* How many entries the test folder holds (no temporary file may be left). */
static int entries(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void new_and_existing_regular_files(void **state)
{
    (void)state;
    char path[PATH_MAX], buf[64];
    gs_error err;
    in_dir(path, "new.json");
    mode_t old = umask(022);
    assert_int_equal(write_text(path, "one\n", &err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "one\n");
    assert_int_equal(chmod(path, 0600), 0);
    ino_t before = st.st_ino;
    assert_int_equal(write_text(path, "two\n", &err), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);            /* the existing mode is kept */
    assert_true(st.st_ino != before);                     /* replaced by rename */
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "two\n");
    umask(027);
    in_dir(path, "masked.json");
    assert_int_equal(write_text(path, "x", &err), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    umask(old);
    assert_int_equal(entries(), 2);
}

static void abort_leaves_target(void **state)
{
    (void)state;
    char path[PATH_MAX], buf[64];
    gs_error err;
    in_dir(path, "keep.txt");
    assert_int_equal(write_text(path, "old", &err), 0);
    gs_outfile out;
    assert_int_equal(gs_outfile_open(&out, path, &err), 0);
    fputs("new", out.f);
    gs_outfile_abort(&out);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "old");
    assert_int_equal(entries(), 1);
}

static void fifo_with_reader_stays_fifo(void **state)
{
    (void)state;
    char path[PATH_MAX], got[PATH_MAX], buf[64];
    gs_error err;
    in_dir(path, "pipe");
    in_dir(got, "got.txt");
    assert_int_equal(mkfifo(path, 0600), 0);
    pid_t pid = fork();
    if (pid == 0) {                                        /* the reader: copy the FIFO to got */
        alarm(5);                                          /* a FIFO replaced by a file: no writer */
        int in = open(path, O_RDONLY), o = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char b[256];
        ssize_t n;
        while ((n = read(in, b, sizeof b)) > 0)
            if (write(o, b, (size_t)n) != n)
                _exit(1);
        _exit(0);
    }
    assert_int_equal(write_text(path, "through the pipe\n", &err), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_int_equal(status, 0);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    read_back(got, buf, sizeof buf);
    assert_string_equal(buf, "through the pipe\n");
}

static void dash_is_stdout(void **state)
{
    (void)state;
    gs_error err;
    gs_outfile out;
    assert_int_equal(gs_outfile_open(&out, "-", &err), 0);
    assert_true(out.f == stdout);
    assert_true(out.is_stdout);
    assert_int_equal(gs_outfile_commit(&out, &err), 0);
    assert_int_equal(fputs("", stdout) >= 0, 1);           /* stdout is still open */
    assert_int_equal(entries(), 0);
}

static void links_stay_links(void **state)
{
    (void)state;
    char target[PATH_MAX], link[PATH_MAX], dangling[PATH_MAX], missing[PATH_MAX], buf[64];
    gs_error err;
    in_dir(target, "target.json");
    in_dir(link, "link.json");
    assert_int_equal(write_text(target, "first", &err), 0);
    assert_int_equal(symlink("target.json", link), 0);     /* relative to the link's folder */
    assert_int_equal(write_text(link, "second", &err), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_back(target, buf, sizeof buf);
    assert_string_equal(buf, "second");
    in_dir(dangling, "dangling.json");
    in_dir(missing, "not-yet.json");
    assert_int_equal(symlink(missing, dangling), 0);
    assert_int_equal(write_text(dangling, "third", &err), 0);
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_back(missing, buf, sizeof buf);
    assert_string_equal(buf, "third");
    assert_int_equal(entries(), 4);
}

static void write_errors_name_path(void **state)
{
    (void)state;
    char path[PATH_MAX];
    gs_error err;
    in_dir(path, "no/such/folder.json");
    assert_int_equal(write_text(path, "x", &err), GS_ERR_IO);
    assert_non_null(strstr(err.msg, path));
    assert_int_equal(write_text(dir, "x", &err), GS_ERR_IO);
    assert_non_null(strstr(err.msg, "folder"));
}

/* Run the permission cases as an unprivileged user when root (root may write anything). */
static void drop_privileges(void)
{
    if (geteuid() == 0)
        assert_int_equal(seteuid(65534), 0);
}

static void restore_privileges(void)
{
    if (getuid() == 0)
        assert_int_equal(seteuid(0), 0);
}

/* Run as an unprivileged user when root: should the code ever try to replace a device, the
 * rename in /dev fails instead of turning /dev/null into a regular file. */
static void devices_written_in_place(void **state)
{
    (void)state;
    gs_error err, full_err;
    drop_privileges();
    int rc_null = write_text("/dev/null", "nothing", &err);
    gs_error_clear(&full_err);
    int rc_full = write_text("/dev/full", "no room", &full_err);
    restore_privileges();
    if (rc_null)
        fail_msg("/dev/null: %s", err.msg);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(rc_full, GS_ERR_IO);
    assert_non_null(strstr(full_err.msg, "/dev/full"));
    assert_non_null(strstr(full_err.msg, strerror(ENOSPC)));
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void check_fails(int rc, const gs_error *err, const char *needle)
{
    if (rc != GS_ERR_USAGE || !strstr(err->msg, needle))
        fail_msg("rc %d, message '%s'; wanted '%s'", rc, err->msg, needle);
    if (!strstr(err->msg, "--json") && !strstr(err->msg, "--csv"))
        fail_msg("message '%s' does not name the option", err->msg);
}

static void outfile_checks(void **state)
{
    (void)state;
    char path[PATH_MAX], ro_dir[PATH_MAX], ro_file[PATH_MAX], inside[PATH_MAX];
    gs_error err;
    in_dir(path, "fresh.json");
    assert_int_equal(gs_outfile_check(path, "--json", &err), 0);
    assert_int_equal(gs_outfile_check("-", "--json", &err), 0);
    assert_int_equal(gs_outfile_check("/dev/null", "--json", &err), 0);
    in_dir(path, "missing/r.json");
    check_fails(gs_outfile_check(path, "--json", &err), &err, "does not exist");
    check_fails(gs_outfile_check(dir, "--json", &err), &err, "is a folder");
    in_dir(ro_dir, "ro");
    in_dir(ro_file, "ro.json");
    assert_int_equal(mkdir(ro_dir, 0555), 0);
    assert_int_equal(write_text(ro_file, "x", &err), 0);
    assert_int_equal(chmod(ro_file, 0444), 0);
    in_dir(inside, "ro/r.json");
    int before = entries();
    drop_privileges();
    int rc_file = gs_outfile_check(ro_file, "--json", &err);
    gs_error file_err = err;
    int rc_dir = gs_outfile_check(inside, "--json", &err);
    restore_privileges();
    check_fails(rc_file, &file_err, "not writable");
    check_fails(rc_dir, &err, "not writable");
    assert_int_equal(entries(), before);                   /* nothing created */
    assert_int_equal(access(inside, F_OK), -1);
}

static void outdir_checks(void **state)
{
    (void)state;
    char path[PATH_MAX], file[PATH_MAX], ro[PATH_MAX];
    gs_error err;
    assert_int_equal(gs_outdir_check(dir, "--csv", &err), 0);
    in_dir(path, "new-folder");
    assert_int_equal(gs_outdir_check(path, "--csv", &err), 0);
    assert_int_equal(access(path, F_OK), -1);              /* not created by the check */
    in_dir(path, "a/b");
    check_fails(gs_outdir_check(path, "--csv", &err), &err, "mkdir -p");
    in_dir(file, "plain");
    assert_int_equal(write_text(file, "x", &err), 0);
    check_fails(gs_outdir_check(file, "--csv", &err), &err, "not a folder");
    in_dir(ro, "ro-out");
    assert_int_equal(mkdir(ro, 0555), 0);
    in_dir(path, "ro-out/sub");
    drop_privileges();
    int rc_ro = gs_outdir_check(ro, "--csv", &err);
    gs_error ro_err = err;
    int rc_sub = gs_outdir_check(path, "--csv", &err);
    restore_privileges();
    check_fails(rc_ro, &ro_err, "not writable");
    check_fails(rc_sub, &err, "cannot be created");
    in_dir(path, "made");
    assert_int_equal(gs_outdir_make(path, &err), 0);
    assert_int_equal(gs_outdir_make(path, &err), 0);
    assert_int_equal(gs_outdir_make(file, &err), GS_ERR_IO);
}

/* A sticky world-writable folder, as /tmp: a link there is followed only when it belongs to the
 * user or to the folder's owner (protected_symlinks); another user's file there cannot be renamed
 * over, which the check says before anything is measured. */
static void sticky_folder(void **state)
{
    (void)state;
    char shared[PATH_MAX], victim[PATH_MAX], link[PATH_MAX], theirs[PATH_MAX], buf[64];
    gs_error err;
    in_dir(shared, "shared");
    in_dir(victim, "victim");
    assert_int_equal(mkdir(shared, 0777), 0);
    assert_int_equal(chmod(shared, 01777), 0);
    assert_int_equal(write_text(victim, "secret", &err), 0);
    in_dir(link, "shared/result.json");
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(gs_outfile_check(link, "--json", &err), 0);     /* the user's own link */
    if (geteuid() != 0) {
        skip();                                  /* another user's link needs root to make */
        return;
    }
    assert_int_equal(lchown(link, 65534, 65534), 0);
    check_fails(gs_outfile_check(link, "--json", &err), &err, "protected_symlinks");
    assert_int_equal(write_text(link, "replaced", &err), GS_ERR_IO);
    read_back(victim, buf, sizeof buf);
    assert_string_equal(buf, "secret");
    in_dir(theirs, "shared/theirs.json");               /* root's file, seen by nobody */
    assert_int_equal(write_text(theirs, "x", &err), 0);
    assert_int_equal(chmod(theirs, 0666), 0);            /* writable: only the rename is refused */
    drop_privileges();
    int rc = gs_outfile_check(theirs, "--json", &err);
    restore_privileges();
    check_fails(rc, &err, "another user");
}

/* The temporary file's name must fit too: a 255-byte name works, a 256-byte one is refused by
 * the check. */
static void longest_names(void **state)
{
    (void)state;
    char name[300], path[PATH_MAX], buf[16];
    gs_error err;
    memset(name, 'n', 250);
    snprintf(name + 250, sizeof name - 250, ".json");
    in_dir(path, name);
    assert_int_equal(gs_outfile_check(path, "--json", &err), 0);
    assert_int_equal(write_text(path, "long", &err), 0);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "long");
    assert_int_equal(entries(), 1);
    memmove(name + 1, name, strlen(name) + 1);
    in_dir(path, name);
    check_fails(gs_outfile_check(path, "--json", &err), &err, "too long");
}

static void fifo_without_reader(void **state)
{
    (void)state;
    char path[PATH_MAX];
    gs_error err;
    in_dir(path, "pipe");
    assert_int_equal(mkfifo(path, 0600), 0);
    check_fails(gs_outfile_check(path, "--json", &err), &err, "no process reads");
}

/* An output may not be an input (by device and inode, through links too) or another output. */
static void outputs_are_not_inputs(void **state)
{
    (void)state;
    char doc[PATH_MAX], alias[PATH_MAX], fresh[PATH_MAX];
    gs_error err;
    gs_claims_reset();
    in_dir(doc, "doc.json");
    in_dir(alias, "alias.json");
    in_dir(fresh, "fresh.json");
    assert_int_equal(write_text(doc, "{}", &err), 0);
    assert_int_equal(symlink("doc.json", alias), 0);
    assert_int_equal(gs_input_claim(alias, "result document", &err), 0);
    check_fails(gs_outfile_check(doc, "--json", &err), &err, "result document");
    assert_int_equal(gs_outfile_check(fresh, "--json", &err), 0);
    assert_int_equal(gs_outfile_check(fresh, "--json", &err), 0);    /* checked twice: fine */
    assert_int_equal(gs_outfile_claim(fresh, "--trace", &err), GS_ERR_USAGE);
    gs_claims_reset();
    assert_int_equal(gs_outfile_check(doc, "--json", &err), 0);
    assert_int_equal(gs_input_claim(doc, "model file", &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "model file"));
    gs_claims_reset();
}

/* A signal while an output is being written removes its temporary file; the process ends with
 * the signal (exit status 128 + signal). */
static void signal_removes_temporary(void **state)
{
    (void)state;
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
        char path[PATH_MAX];
        in_dir(path, "page.html");
        pid_t pid = fork();
        if (pid == 0) {
            gs_interrupt_install();
            gs_outfile out;
            gs_error err;
            if (gs_outfile_open(&out, path, &err))
                _exit(3);
            fputs("partial", out.f);
            fflush(out.f);
            raise(sigs[k]);
            _exit(4);                            /* the first signal must not be ignored */
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), sigs[k]);
        assert_int_equal(entries(), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(new_and_existing_regular_files, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(abort_leaves_target, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(fifo_with_reader_stays_fifo, make_dir, remove_dir),
                cmocka_unit_test_setup_teardown(dash_is_stdout, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(links_stay_links, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(write_errors_name_path, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(devices_written_in_place, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(outfile_checks, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(outdir_checks, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(sticky_folder, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(longest_names, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(fifo_without_reader, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(outputs_are_not_inputs, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(signal_removes_temporary, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
