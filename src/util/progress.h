/* Progress on stderr while probes run: one line, rewritten in place, naming the probe, what it
 * is doing and about how long is left. Silent with --quiet and when stderr is not a terminal
 * (a log file or a batch system gets no carriage returns); warnings and errors still print. */
#ifndef GS_PROGRESS_H
#define GS_PROGRESS_H

#include <stdbool.h>

/* Enable or disable (quiet, or stderr not a terminal: disabled). */
void gs_progress_init(bool quiet);
/* The current stage, e.g. "[3/9] cache", the probe's name, and the seconds left (< 0: unknown). */
void gs_progress_stage(const char *stage, const char *name, double seconds_left);
/* A probe's own detail line under the current stage ("l1: sweeping 16 KB"). */
void gs_progress_detail(const char *text);
/* Clear the line (before a warning or the report) . */
void gs_progress_clear(void);

#endif
