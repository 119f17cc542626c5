/* Input files read whole (input.h). */
#include "util/input.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"

/* Why path cannot be opened, in the words a user needs: a link to nowhere names its target. */
static int open_failure(const char *path, const char *what, int e, gs_error *err)
{
    struct stat st;
    char link[PATH_MAX];
    ssize_t n = e == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)
                    ? readlink(path, link, sizeof link - 1) : -1;
    if (n >= 0) {
        link[n] = '\0';
        return gs_fail(err, GS_ERR_INPUT, "cannot read %s '%s': it is a link to '%s', which does "
                       "not exist", what, path, link);
    }
    return gs_fail(err, GS_ERR_INPUT, "cannot read %s '%s': %s", what, path, strerror(e));
}

static int kind_failure(const char *path, const char *what, const struct stat *st, gs_error *err)
{
    const char *kind = S_ISDIR(st->st_mode)   ? "a folder"
                       : S_ISCHR(st->st_mode) ? "a character device"
                       : S_ISBLK(st->st_mode) ? "a block device"
                       : S_ISSOCK(st->st_mode) ? "a socket"
                                               : "not a regular file";
    return gs_fail(err, GS_ERR_INPUT, "cannot read %s '%s': it is %s; give a JSON file", what,
                   path, kind);
}

/* Read fd to its end into a growing buffer. 0 or an errno. */
static int read_all(int fd, char **text, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *grown = cap > SIZE_MAX / 4 ? NULL : realloc(buf, cap * 2 + 1);
            if (!grown)
                break;
            buf = grown, cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return e;
        }
        if (got == 0) {
            buf[n] = '\0';
            *text = buf, *len = n;
            return 0;
        }
        n += (size_t)got;
    }
    free(buf);
    return ENOMEM;
}

int gs_input_read(const char *path, const char *what, char **text, size_t *len, gs_error *err)
{
    *text = NULL, *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return open_failure(path, what, errno, err);
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        int rc = fstat(fd, &st) != 0 ? open_failure(path, what, errno, err)
                                     : kind_failure(path, what, &st, err);
        close(fd);
        return rc;
    }
    int rc = gs_input_claim(path, what, err);
    if (rc) {
        close(fd);
        return rc;
    }
    int e = read_all(fd, text, len);
    close(fd);
    if (e)
        return gs_fail(err, GS_ERR_INPUT, "cannot read %s '%s': %s", what, path, strerror(e));
    if (*len >= 3 && memcmp(*text, "\xEF\xBB\xBF", 3) == 0) {   /* UTF-8 byte-order mark */
        memmove(*text, *text + 3, *len - 2);
        *len -= 3;
    }
    return 0;
}
