/* Output files, the one way every writer (--json, --csv, --trace, plots) opens what it writes.
 * A regular file or a new path is written atomically: a temporary file beside the target, fsync,
 * rename over it, the old file's mode kept (a new file gets 0644 less the umask). Anything else
 * that exists (a FIFO, a character device such as /dev/null, "-" or /dev/stdout) is opened and
 * written in place, never replaced. A symbolic link is followed to its target, and the link stays
 * a link, except in a sticky world-writable folder, where only a link of the user or of the
 * folder's owner is followed (the kernel's protected_symlinks rule). The checks run before any
 * measurement, so a run never ends with nowhere to write; a temporary file is removed on any
 * signal (util/interrupt.h). No output may be an input or another output of the same run. */
#ifndef GS_OUTFILE_H
#define GS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

typedef struct gs_outfile {
    FILE *f;                 /* write here between open and commit */
    char path[4096];         /* as the user gave it, for messages */
    char target[4096];       /* what the rename replaces (a link's target); "" in place */
    char tmp[4096];          /* the temporary file; "" when written in place */
    bool is_stdout;          /* "-" or /dev/stdout: stdout itself, flushed and left open */
    int tracked;             /* the temporary file's slot in the signal handler's list, or -1 */
} gs_outfile;

/* Open path for writing as described above. 0 or GS_ERR_IO naming the path. */
int gs_outfile_open(gs_outfile *out, const char *path, gs_error *err);

/* Flush, fsync and close, then rename the temporary file over the target. A write error (ENOSPC
 * on /dev/full) is GS_ERR_IO naming the path; the temporary file is removed on any error. */
int gs_outfile_commit(gs_outfile *out, gs_error *err);

/* Give up: close and remove the temporary file; the target is left as it was. */
void gs_outfile_abort(gs_outfile *out);

/* Before any measurement: can path be written as gs_outfile_open would write it? Leaves nothing
 * behind: a trial temporary file is created and removed in the target's folder; a FIFO is opened
 * (and held open for the write) to know it has a reader. GS_ERR_USAGE with one line naming option
 * ("--json") and the fix when the folder is missing or not writable, path is a folder, a link
 * that is not followed, a read-only file, another user's file in a sticky folder, a FIFO with no
 * reader, a device that does not open (/dev/tty without a terminal), a name too long for the
 * temporary file, or an input or another output of the run (gs_outfile_claim). */
int gs_outfile_check(const char *path, const char *option, gs_error *err);

/* Record path as an output of this run (gs_outfile_check does it): GS_ERR_USAGE when it is the
 * same file (device and inode, or the same new path) as an input or another output recorded. */
int gs_outfile_claim(const char *path, const char *option, gs_error *err);

/* Record path as an input of this run ("result document", "model file"): GS_ERR_USAGE when it is
 * an output recorded. */
int gs_input_claim(const char *path, const char *what, gs_error *err);

/* Forget every recorded input and output (tests). */
void gs_claims_reset(void);

/* Before any measurement: can files be written into folder dir (--csv, --out)? It exists and is
 * a writable folder, or it is missing and its parent is a writable folder (so it can be
 * created). Creates nothing. GS_ERR_USAGE naming option and the fix. */
int gs_outdir_check(const char *dir, const char *option, gs_error *err);

/* Create folder dir if missing (mode 0777 less the umask). 0 or GS_ERR_IO naming it. */
int gs_outdir_make(const char *dir, gs_error *err);

#endif
