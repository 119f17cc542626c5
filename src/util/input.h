/* Input files (result documents, model files) read whole, the one way every reader opens what it
 * reads: a folder, a device or a missing file is one message saying what it is; a FIFO is read
 * as it comes; a UTF-8 byte-order mark at the start is skipped; the file is recorded as an input
 * of the run (util/outfile.h), so no output of the run may replace it. */
#ifndef GS_INPUT_H
#define GS_INPUT_H

#include <stddef.h>

#include "util/error.h"

/* Read path into *text (NUL-terminated, *len bytes without the mark; free() it). what names the
 * file in messages ("result document"). 0, GS_ERR_INPUT naming path and cause, or GS_ERR_USAGE
 * when the file is an output of this run. */
int gs_input_read(const char *path, const char *what, char **text, size_t *len, gs_error *err);

#endif
