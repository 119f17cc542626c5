/* Progress on stderr while probes run. On a terminal: one line, rewritten in place, naming the
 * probe, what it is doing and about how long is left (counting down while a probe runs). Not on
 * a terminal (a log file, a batch system): one plain line when a probe starts and one when it
 * ends, without carriage returns, so a job's log shows how far the run got. Silent with
 * --quiet; never on stdout (the report, or the JSON document with --json -). */
#ifndef GS_PROGRESS_H
#define GS_PROGRESS_H

#include <stdbool.h>

/* Off with quiet; rewritten on a terminal; lines otherwise. */
void gs_progress_init(bool quiet);
/* In a second process of the run: lines where the first process writes lines, nothing where it
 * rewrites a terminal's line (two writers would garble it). */
void gs_progress_second_process(void);
/* A probe starts: its stage, e.g. "[3/9] cache", its name, and the seconds left in the run
 * (< 0: unknown). */
void gs_progress_stage(const char *stage, const char *name, double seconds_left);
/* The probe of the current stage ended with status ("ok", "failed", ...) after seconds. */
void gs_progress_done(const char *status, double seconds);
/* A probe's own detail line under the current stage ("l1: sweeping 16 KB"); terminal only. */
void gs_progress_detail(const char *text);
/* Clear the line (before a warning or the report) . */
void gs_progress_clear(void);

/* "about 40 s left", "about 3 min left", or "" under half a second, into buf. */
void gs_progress_eta_text(double seconds_left, char *buf, unsigned len);

#endif
