/* Error codes and messages that travel up from where a failure is found to main, which alone
 * decides the exit status. The message is built once, where the error is found, and says what
 * failed and what the user can do about it. Library code never exits. */
#ifndef GS_ERROR_H
#define GS_ERROR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_status {
    GS_OK = 0,
    GS_ERR_USAGE,        /* bad command line: unknown command/probe/option, bad value */
    GS_ERR_INPUT,        /* unreadable or malformed input file (model file, result file) */
    GS_ERR_NO_DEVICE,    /* no GPU, or the requested device index does not exist */
    GS_ERR_DRIVER,       /* driver too old for this build, or CUDA unusable */
    GS_ERR_NO_MEMORY,    /* out of device or host memory */
    GS_ERR_UNSUPPORTED,  /* the backend cannot run this plan (path, space, instruction) */
    GS_ERR_DEVICE,       /* a device call failed (launch failure, timeout) */
    GS_ERR_INTERRUPTED,  /* Ctrl-C: the run stops after the current measurement */
    GS_ERR_IO,           /* writing an output file failed */
    GS_ERR_PROBE,        /* a probe could not produce its figures */
    GS_ERR_DRY_RUN,      /* a dry run reached its first measurement: the options were accepted */
} gs_status;

typedef struct gs_error {
    gs_status status;
    char msg[768];
} gs_error;

/* Record an error (printf-style message) in err, if err is not NULL, and return status. The
 * message's control characters become visible escapes (\n, \x1b: util/escape.h). */
int gs_fail(gs_error *err, gs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clear err to GS_OK with an empty message. */
void gs_error_clear(gs_error *err);

/* Exit status for a status code: 0 ok, 1 a probe or device failed, 2 usage or bad input. */
int gs_exit_status(gs_status status);

/* Short name of a status code ("usage", "no-device", ...), for JSON and logs. */
const char *gs_status_name(gs_status status);

#ifdef __cplusplus
}
#endif

#endif
