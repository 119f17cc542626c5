/* Output files written atomically or in place, and the checks made before measuring (outfile.h). */
#define _GNU_SOURCE
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/interrupt.h"

#define MAX_LINK_HOPS 40
/* A link the protected_symlinks rule would not follow (resolve_target's own error code). */
#define UNSAFE_LINK (-1)
/* The temporary file's name keeps at most this much of the target's name, so that a target
 * name of up to NAME_MAX bytes still leaves room for ".NAME.tmp.XXXXXX". */
#define TMP_BASE_MAX 200

static bool is_stdout_name(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
}

/* Paths the kernel makes up (/dev/fd/N, /proc/self/fd/N, devices): written where they point,
 * never resolved by hand or replaced. */
static bool is_special_tree(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

/* Split path into its folder ("." when none) and last name ("" for a trailing slash). */
static void split_path(const char *path, char *dir, size_t dir_len, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dir_len, ".");
        *base = path;
        return;
    }
    size_t n = (size_t)(slash - path);
    snprintf(dir, dir_len, "%.*s", (int)(n ? n : 1), path);
    *base = slash + 1;
}

/* The kernel's protected_symlinks rule: in a sticky world-writable folder (/tmp, a shared results
 * folder) a link is followed only when it belongs to the user or to the folder's owner, so that
 * nobody can plant a link there that makes another user (root) replace a file of their choice. */
static bool may_follow(const struct stat *link, const char *dir)
{
    struct stat d;
    if (stat(dir, &d) != 0)
        return false;
    if (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
        return true;
    return link->st_uid == geteuid() || link->st_uid == d.st_uid;
}

/* Follow symbolic links from path to what a rename must replace: the real path of an existing
 * target, or of a missing target's folder plus its name. *st gets the target's stat when it
 * exists. 0, UNSAFE_LINK or an errno (ENOENT: the folder is missing; EISDIR: the name ends in
 * '/'). */
static int resolve_target(const char *path, char *out, size_t len, bool *exists, struct stat *st)
{
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return ENAMETOOLONG;
    for (int hop = 0; hop < MAX_LINK_HOPS; hop++) {
        char dir[PATH_MAX], real[PATH_MAX];
        const char *base;
        if (lstat(cur, st) != 0) {                   /* missing: its folder must exist */
            if (errno != ENOENT)
                return errno;
            split_path(cur, dir, sizeof dir, &base);
            if (!*base)
                return EISDIR;
            *exists = false;
            if (!realpath(dir, real))
                return errno;
            return snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", base) >= (int)len
                       ? ENAMETOOLONG : 0;
        }
        if (!S_ISLNK(st->st_mode)) {
            *exists = true;
            if (!realpath(cur, real))
                return errno;
            return snprintf(out, len, "%s", real) >= (int)len ? ENAMETOOLONG : 0;
        }
        split_path(cur, dir, sizeof dir, &base);
        if (!may_follow(st, dir))
            return UNSAFE_LINK;
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return errno;
        link[n] = '\0';
        char next[PATH_MAX];
        if (snprintf(next, sizeof next, "%s%s%s", link[0] == '/' ? "" : dir,
                     link[0] == '/' ? "" : "/", link) >= (int)sizeof next)
            return ENAMETOOLONG;
        memcpy(cur, next, sizeof cur);
    }
    return ELOOP;
}

static mode_t current_umask(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return mask;
}

static int fail_errno(gs_error *err, const char *path, int e)
{
    if (e == UNSAFE_LINK)
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': it is a link of another user in a "
                       "shared (sticky) folder, which is not followed", path);
    return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
}

/* ".NAME.tmp.XXXXXX" beside target (in its folder dir). */
static int temporary_name(char *tmp, size_t len, const char *dir, const char *base)
{
    return snprintf(tmp, len, "%s/.%.*s.tmp.XXXXXX", dir, TMP_BASE_MAX, base) >= (int)len
               ? ENAMETOOLONG : 0;
}

/* FIFOs opened by gs_outfile_check, held open so that their reader stays (closing them would
 * give the reader its end of file) and reused by gs_outfile_open. */
#define HELD_MAX 16
static struct {
    dev_t dev;
    ino_t ino;
    int fd;
} held[HELD_MAX];
static int held_count;

static int take_held(const struct stat *st)
{
    for (int i = 0; i < held_count; i++)
        if (held[i].fd >= 0 && held[i].dev == st->st_dev && held[i].ino == st->st_ino) {
            int fd = held[i].fd;
            held[i].fd = -1;
            return fd;
        }
    return -1;
}

static void hold(int fd, const struct stat *st)
{
    struct stat known;
    for (int i = 0; i < held_count; i++)
        if (held[i].fd >= 0 && fstat(held[i].fd, &known) == 0 && known.st_dev == st->st_dev &&
            known.st_ino == st->st_ino) {
            close(fd);                               /* checked twice: one is enough */
            return;
        }
    if (held_count == HELD_MAX) {
        close(fd);
        return;
    }
    held[held_count].dev = st->st_dev;
    held[held_count].ino = st->st_ino;
    held[held_count++].fd = fd;
}

/* A temporary file beside target with the mode (and owner, where allowed) it must end with.
 * mkostemp creates it with O_EXCL, so nothing planted under its name is followed. */
static int open_temporary(gs_outfile *out, bool exists, const struct stat *st, gs_error *err)
{
    char dir[PATH_MAX];
    const char *base;
    split_path(out->target, dir, sizeof dir, &base);
    if (temporary_name(out->tmp, sizeof out->tmp, dir, base))
        return fail_errno(err, out->path, ENAMETOOLONG);
    int fd = mkostemp(out->tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        out->tmp[0] = '\0';
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': cannot create a temporary file in "
                       "'%s': %s", out->path, dir, strerror(e));
    }
    out->tracked = gs_interrupt_track_file(out->tmp);
    mode_t mode = exists ? (st->st_mode & 07777) : (0644 & ~current_umask());
    if (exists && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
        fchown(fd, st->st_uid, st->st_gid) != 0)
        mode &= ~(mode_t)(S_ISUID | S_ISGID);        /* keep the mode, not another's privileges */
    if (fchmod(fd, mode) != 0 || !(out->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        gs_outfile_abort(out);
        return fail_errno(err, out->path, e);
    }
    return 0;
}

/* Open what exists and is not a regular file (a FIFO, a device) in place, never replaced. A FIFO
 * that gs_outfile_check opened is written through that descriptor; one it did not waits for its
 * reader, as a FIFO does. */
static int open_in_place(gs_outfile *out, const char *where, const struct stat *st, gs_error *err)
{
    int fd = st && S_ISFIFO(st->st_mode) ? take_held(st) : -1;
    /* A resolved target (not a /dev or /proc name) has no link left: O_NOFOLLOW keeps it so. */
    if (fd < 0)
        fd = open(where, O_WRONLY | O_CLOEXEC | O_NOCTTY |
                  (st && S_ISFIFO(st->st_mode) ? 0 : O_NONBLOCK) |
                  (where == out->target ? O_NOFOLLOW : 0));
    int e = errno;
    if (fd >= 0) {
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
            !(out->f = fdopen(fd, "w")))
            e = errno, close(fd), fd = -1;
    }
    return fd < 0 ? fail_errno(err, out->path, e) : 0;
}

int gs_outfile_open(gs_outfile *out, const char *path, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->tracked = -1;
    if (snprintf(out->path, sizeof out->path, "%s", path) >= (int)sizeof out->path)
        return fail_errno(err, path, ENAMETOOLONG);
    if (is_stdout_name(path)) {
        out->is_stdout = true;
        out->f = stdout;
        return 0;
    }
    struct stat st;
    if (is_special_tree(path)) {                     /* /dev/null, /dev/fd/N: where they point */
        bool present = stat(path, &st) == 0;
        if (present && S_ISDIR(st.st_mode))
            return gs_fail(err, GS_ERR_IO, "cannot write '%s': it is a folder", path);
        return open_in_place(out, path, present ? &st : NULL, err);
    }
    bool exists = false;
    int e = resolve_target(path, out->target, sizeof out->target, &exists, &st);
    if (e)
        return fail_errno(err, path, e);
    if (exists && S_ISDIR(st.st_mode))
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': it is a folder", path);
    if (exists && !S_ISREG(st.st_mode)) {
        int rc = open_in_place(out, out->target, &st, err);
        out->target[0] = '\0';
        return rc;
    }
    return open_temporary(out, exists, &st, err);
}

/* Make the rename durable: fsync the folder it happened in (best effort). */
static void sync_folder(const char *target)
{
    char dir[PATH_MAX];
    const char *base;
    split_path(target, dir, sizeof dir, &base);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int gs_outfile_commit(gs_outfile *out, gs_error *err)
{
    int e = 0;
    errno = 0;
    if (fflush(out->f) != 0 || ferror(out->f))
        e = errno ? errno : EIO;
    if (out->is_stdout) {
        out->f = NULL;
        if (!e)
            return 0;
        clearerr(stdout);                            /* reported here, not again at exit */
        __fpurge(stdout);
        return gs_fail(err, GS_ERR_IO, "cannot write to standard output: %s", strerror(e));
    }
    if (!e && out->tmp[0] && fsync(fileno(out->f)) != 0)
        e = errno;
    if (fclose(out->f) != 0 && !e)
        e = errno;
    out->f = NULL;
    if (!e && out->tmp[0] && rename(out->tmp, out->target) != 0)
        e = errno;
    if (e) {
        gs_outfile_abort(out);
        return fail_errno(err, out->path, e);
    }
    gs_interrupt_untrack_file(out->tracked);
    out->tracked = -1;
    if (out->tmp[0])
        sync_folder(out->target);
    return 0;
}

void gs_outfile_abort(gs_outfile *out)
{
    if (out->f && !out->is_stdout)
        fclose(out->f);
    out->f = NULL;
    if (out->tmp[0])
        unlink(out->tmp);
    out->tmp[0] = '\0';
    gs_interrupt_untrack_file(out->tracked);
    out->tracked = -1;
}

/* ---- checks before measuring ---------------------------------------------------------------- */

static bool writable(const char *path, int how)
{
    return faccessat(AT_FDCWD, path, how, AT_EACCESS) == 0;
}

/* Create and remove a temporary file in dir under the name the write will use: the one test
 * that covers permissions, a read-only file system, quotas on inodes and the name's length. */
static int trial_temporary(const char *path, const char *option, const char *dir,
                           const char *base, gs_error *err)
{
    char tmp[PATH_MAX];
    if (temporary_name(tmp, sizeof tmp, dir, base))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: the path is too long; choose a shorter one",
                       option, path);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: cannot create a file in folder '%s' (%s); "
                       "choose another path", option, path, dir, strerror(errno));
    close(fd);
    unlink(tmp);
    return 0;
}

/* A device or FIFO is written in place: it must open now. A FIFO with no reader is ENXIO; the
 * FIFO is then held open until it is written, so that its reader does not see an end of file. */
static int check_in_place(const char *path, const char *option, const char *where,
                          const struct stat *st, gs_error *err)
{
    int fd = open(where, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    /* A reader started just before gpusonar (cat FIFO &) may not have opened it yet: a second. */
    for (int tries = 0; fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode) && tries < 100; tries++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        fd = open(where, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    }
    if (fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: no process reads from this FIFO; start its "
                       "reader first", option, path);
    if (fd < 0 && errno == ENXIO)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: the device is not there (%s%s); choose another "
                       "path", option, path, strerror(errno),
                       strcmp(where, "/dev/tty") == 0 ? ": no controlling terminal" : "");
    if (fd < 0)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: %s; choose another path", option, path,
                       strerror(errno));
    if (S_ISFIFO(st->st_mode))
        hold(fd, st);
    else
        close(fd);
    return 0;
}

static int check_existing(const char *path, const char *option, const char *target,
                          const struct stat *st, gs_error *err)
{
    if (S_ISDIR(st->st_mode))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: is a folder; give a file name inside it", option,
                       path);
    if (!writable(target, W_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: the file is not writable (%s); make it writable "
                       "(chmod u+w) or choose another path", option, path, strerror(errno));
    if (!S_ISREG(st->st_mode))
        return check_in_place(path, option, target, st, err);
    char dir[PATH_MAX];
    const char *base;
    struct stat d;
    split_path(target, dir, sizeof dir, &base);
    if (!writable(dir, W_OK | X_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' is not writable (the file is "
                       "replaced through a temporary file there); choose another path", option,
                       path, dir);
    /* In a sticky folder only the file's or the folder's owner (or a privileged user) may
     * rename over the file. */
    if (stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) && geteuid() != 0 &&
        st->st_uid != geteuid() && d.st_uid != geteuid())
        return gs_fail(err, GS_ERR_USAGE, "%s %s: the file belongs to another user in a shared "
                       "(sticky) folder, where it cannot be replaced; choose another path",
                       option, path);
    return trial_temporary(path, option, dir, base, err);
}

/* The message for a path whose folder is missing; a dangling link names where it points. */
static int missing_folder(const char *path, const char *option, gs_error *err)
{
    char dir[PATH_MAX], link[PATH_MAX];
    const char *base;
    struct stat st;
    ssize_t n = lstat(path, &st) == 0 && S_ISLNK(st.st_mode)
                    ? readlink(path, link, sizeof link - 1) : -1;
    if (n >= 0) {
        link[n] = '\0';
        return gs_fail(err, GS_ERR_USAGE, "%s %s: is a link to '%s', whose folder does not "
                       "exist; fix or remove the link, or choose another path", option, path,
                       link);
    }
    split_path(path, dir, sizeof dir, &base);
    return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' does not exist; create it (mkdir "
                   "-p) or choose another path", option, path, dir);
}

int gs_outfile_check(const char *path, const char *option, gs_error *err)
{
    struct stat st;
    if (!*path)
        return gs_fail(err, GS_ERR_USAGE, "%s: empty path; give a file name", option);
    if (is_stdout_name(path))
        return 0;
    if (is_special_tree(path)) {
        if (stat(path, &st) != 0)
            return gs_fail(err, GS_ERR_USAGE, "%s %s: %s; choose another path", option, path,
                           strerror(errno));
        return check_existing(path, option, path, &st, err);
    }
    char target[PATH_MAX];
    bool exists = false;
    int e = resolve_target(path, target, sizeof target, &exists, &st);
    if (e == UNSAFE_LINK)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: is a link owned by another user in a shared "
                       "(sticky, world-writable) folder; it is not followed, as the kernel's "
                       "protected_symlinks rule says; remove it or choose another path", option,
                       path);
    if (e == ENOENT || e == ENOTDIR)
        return missing_folder(path, option, err);
    if (e == EISDIR)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: is a folder; give a file name inside it",
                       option, path);
    if (e)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: %s; choose another path", option, path,
                       strerror(e));
    if ((e = gs_outfile_claim(path, option, err)))
        return e;
    if (exists)
        return check_existing(path, option, target, &st, err);
    char dir[PATH_MAX];
    const char *base;
    split_path(target, dir, sizeof dir, &base);
    if (!writable(dir, W_OK | X_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' is not writable; choose another "
                       "path", option, path, dir);
    return trial_temporary(path, option, dir, base, err);
}

/* ---- no output is an input or another output of the same run ------------------------------ */

/* What a run reads and writes: an existing file by device and inode, a new one by the real
 * path it will have. */
typedef struct claim {
    bool exists, output;
    dev_t dev;
    ino_t ino;
    char *real;
    char *option;
    char *path;
} claim;
static claim *claims;
static size_t nclaims;

static bool same(const claim *a, const claim *b)
{
    if (a->exists != b->exists)
        return false;
    return a->exists ? a->dev == b->dev && a->ino == b->ino : strcmp(a->real, b->real) == 0;
}

static int add_claim(const char *path, const char *option, bool output, gs_error *err)
{
    claim c = {.output = output};
    struct stat st;
    char real[PATH_MAX];
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return 0;                                /* FIFOs, devices: no file to overwrite */
        c.exists = true, c.dev = st.st_dev, c.ino = st.st_ino;
    } else {
        bool exists = false;
        if (!output || resolve_target(path, real, sizeof real, &exists, &st))
            return 0;                                /* the checks say what is wrong */
        c.real = real;
    }
    for (size_t i = 0; i < nclaims; i++) {
        const claim *o = &claims[i];
        if (!same(o, &c) || (!o->output && !output))
            continue;
        if (o->output && output && strcmp(o->option, option) == 0 && strcmp(o->path, path) == 0)
            return 0;                                /* the same output checked again */
        const claim *in = output ? o : &c, *out = output ? &c : o;
        const char *in_path = output ? o->path : path, *in_opt = output ? o->option : option;
        if (in->output && out->output)
            return gs_fail(err, GS_ERR_USAGE, "%s %s and %s %s are the same file; give each "
                           "output its own path", o->option, o->path, option, path);
        return gs_fail(err, GS_ERR_USAGE, "%s %s is the %s %s of this run; writing it would "
                       "destroy it: choose another output path",
                       output ? option : o->option, output ? path : o->path, in_opt, in_path);
    }
    claim *grown = realloc(claims, (nclaims + 1) * sizeof *claims);
    if (!grown)
        return 0;
    claims = grown;
    c.real = c.real ? strdup(c.real) : NULL;
    c.option = strdup(option);
    c.path = strdup(path);
    claims[nclaims++] = c;
    return 0;
}

int gs_outfile_claim(const char *path, const char *option, gs_error *err)
{
    return is_stdout_name(path) ? 0 : add_claim(path, option, true, err);
}

int gs_input_claim(const char *path, const char *what, gs_error *err)
{
    return add_claim(path, what, false, err);
}

void gs_claims_reset(void)
{
    for (size_t i = 0; i < nclaims; i++) {
        free(claims[i].real);
        free(claims[i].option);
        free(claims[i].path);
    }
    free(claims);
    claims = NULL;
    nclaims = 0;
}

int gs_outdir_check(const char *dir, const char *option, gs_error *err)
{
    struct stat st;
    if (!*dir)
        return gs_fail(err, GS_ERR_USAGE, "%s: empty folder name", option);
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return gs_fail(err, GS_ERR_USAGE, "%s %s: exists and is not a folder; choose a folder",
                           option, dir);
        if (!writable(dir, W_OK | X_OK))
            return gs_fail(err, GS_ERR_USAGE, "%s %s: folder is not writable; choose another "
                           "folder", option, dir);
        return 0;
    }
    if (errno != ENOENT || lstat(dir, &st) == 0)     /* a link to nowhere cannot be created */
        return gs_fail(err, GS_ERR_USAGE, "%s %s: %s; choose another folder", option, dir,
                       errno == ENOENT ? "a link to a missing folder" : strerror(errno));
    char trimmed[PATH_MAX], parent[PATH_MAX];
    const char *base;
    snprintf(trimmed, sizeof trimmed, "%s", dir);
    for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
        trimmed[n - 1] = '\0';
    split_path(trimmed, parent, sizeof parent, &base);
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: neither the folder nor its parent '%s' exists; "
                       "create it first (mkdir -p)", option, dir, parent);
    if (!writable(parent, W_OK | X_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: the folder is missing and '%s' is not writable, "
                       "so it cannot be created; choose another folder", option, dir, parent);
    return 0;
}

int gs_outdir_make(const char *dir, gs_error *err)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    return gs_fail(err, GS_ERR_IO, "cannot create folder '%s': %s", dir,
                   errno == EEXIST ? "exists and is not a folder" : strerror(errno));
}
