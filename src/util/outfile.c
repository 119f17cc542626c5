/* Output files written atomically or in place, and the checks made before measuring (outfile.h). */
#define _GNU_SOURCE
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINK_HOPS 40

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

/* Follow symbolic links from path to what a rename must replace: the real path of an existing
 * target, or of a missing target's folder plus its name. *st gets the target's stat when it
 * exists. 0 or an errno (ENOENT: the folder is missing; EISDIR: the name ends in '/'). */
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
    return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(e));
}

/* A temporary file beside target with the mode (and owner, where allowed) it must end with. */
static int open_temporary(gs_outfile *out, bool exists, const struct stat *st, gs_error *err)
{
    char dir[PATH_MAX];
    const char *base;
    split_path(out->target, dir, sizeof dir, &base);
    if (snprintf(out->tmp, sizeof out->tmp, "%s/.%s.tmp.XXXXXX", dir, base) >=
        (int)sizeof out->tmp)
        return fail_errno(err, out->path, ENAMETOOLONG);
    int fd = mkstemp(out->tmp);
    if (fd < 0) {
        int e = errno;
        out->tmp[0] = '\0';
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': cannot create a temporary file in "
                       "'%s': %s", out->path, dir, strerror(e));
    }
    mode_t mode = exists ? (st->st_mode & 07777) : (0644 & ~current_umask());
    if (exists && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
        fchown(fd, st->st_uid, st->st_gid) != 0)
        mode &= ~(mode_t)(S_ISUID | S_ISGID);        /* keep the mode, not another's privileges */
    if (fchmod(fd, mode) != 0 || !(out->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(out->tmp);
        out->tmp[0] = '\0';
        return fail_errno(err, out->path, e);
    }
    return 0;
}

/* Open something that exists and is not a regular file (or lives under /dev, /proc) in place. */
static int open_in_place(gs_outfile *out, bool truncate, gs_error *err)
{
    int fd = open(out->path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0));
    if (fd < 0 || !(out->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fail_errno(err, out->path, e);
    }
    return 0;
}

int gs_outfile_open(gs_outfile *out, const char *path, gs_error *err)
{
    memset(out, 0, sizeof *out);
    if (snprintf(out->path, sizeof out->path, "%s", path) >= (int)sizeof out->path)
        return fail_errno(err, path, ENAMETOOLONG);
    if (is_stdout_name(path)) {
        out->is_stdout = true;
        out->f = stdout;
        return 0;
    }
    struct stat st;
    bool present = stat(path, &st) == 0;
    if (present && S_ISDIR(st.st_mode))
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': it is a folder", path);
    if (is_special_tree(path) || (present && !S_ISREG(st.st_mode)))
        return open_in_place(out, present && S_ISREG(st.st_mode), err);
    bool exists = false;
    int e = resolve_target(path, out->target, sizeof out->target, &exists, &st);
    if (e)
        return fail_errno(err, path, e);
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
        return e ? gs_fail(err, GS_ERR_IO, "cannot write to standard output: %s", strerror(e))
                 : 0;
    }
    if (!e && out->tmp[0] && fsync(fileno(out->f)) != 0)
        e = errno;
    if (fclose(out->f) != 0 && !e)
        e = errno;
    out->f = NULL;
    if (!e && out->tmp[0] && rename(out->tmp, out->target) != 0)
        e = errno;
    if (e) {
        if (out->tmp[0])
            unlink(out->tmp);
        return fail_errno(err, out->path, e);
    }
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
}

/* ---- checks before measuring ---------------------------------------------------------------- */

static bool writable(const char *path, int how)
{
    return faccessat(AT_FDCWD, path, how, AT_EACCESS) == 0;
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
        return 0;                                    /* FIFO, device: written in place */
    char dir[PATH_MAX];
    const char *base;
    split_path(target, dir, sizeof dir, &base);
    if (!writable(dir, W_OK | X_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' is not writable (the file is "
                       "replaced through a temporary file there); choose another path", option,
                       path, dir);
    return 0;
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
    if (e == ENOENT || e == ENOTDIR) {
        char dir[PATH_MAX];
        const char *base;
        split_path(path, dir, sizeof dir, &base);
        return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' does not exist; create it (mkdir "
                       "-p) or choose another path", option, path, dir);
    }
    if (e == EISDIR)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: is a folder; give a file name inside it",
                       option, path);
    if (e)
        return gs_fail(err, GS_ERR_USAGE, "%s %s: %s; choose another path", option, path,
                       strerror(e));
    if (exists)
        return check_existing(path, option, target, &st, err);
    char dir[PATH_MAX];
    const char *base;
    split_path(target, dir, sizeof dir, &base);
    if (!writable(dir, W_OK | X_OK))
        return gs_fail(err, GS_ERR_USAGE, "%s %s: folder '%s' is not writable; choose another "
                       "path", option, path, dir);
    return 0;
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
