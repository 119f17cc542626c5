/* Error codes and messages (see error.h). */
#include "util/error.h"

#include <stdio.h>

#include "util/escape.h"
#include <string.h>

int gs_fail(gs_error *err, gs_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        char raw[sizeof err->msg];
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        /* Names in a message come from a document or a command line: the text rule of escape.h
         * keeps their control characters (an escape sequence, a newline) off the terminal. */
        gs_escape_text(err->msg, sizeof err->msg, raw);
        err->status = status;
    }
    return (int)status;
}

void gs_error_clear(gs_error *err)
{
    err->status = GS_OK;
    err->msg[0] = '\0';
}

int gs_exit_status(gs_status status)
{
    switch (status) {
    case GS_OK:
        return 0;
    case GS_ERR_USAGE:
    case GS_ERR_INPUT:
    case GS_ERR_NO_DEVICE:
    case GS_ERR_DRIVER:
        return 2;
    default:
        return 1;
    }
}

const char *gs_status_name(gs_status status)
{
    static const char *const names[] = {
        [GS_OK] = "ok",
        [GS_ERR_USAGE] = "usage",
        [GS_ERR_INPUT] = "input",
        [GS_ERR_NO_DEVICE] = "no-device",
        [GS_ERR_DRIVER] = "driver",
        [GS_ERR_NO_MEMORY] = "no-memory",
        [GS_ERR_UNSUPPORTED] = "unsupported",
        [GS_ERR_DEVICE] = "device",
        [GS_ERR_INTERRUPTED] = "interrupted",
        [GS_ERR_IO] = "io",
        [GS_ERR_PROBE] = "probe",
        [GS_ERR_DRY_RUN] = "dry-run",
    };
    if ((unsigned)status < sizeof names / sizeof names[0] && names[status])
        return names[status];
    return "unknown";
}
