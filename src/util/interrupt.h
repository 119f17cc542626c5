/* Signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP (a closed terminal, a dropped ssh). While a run
 * measures, the first one asks it to stop after the current measurement, so the result document
 * is still written, marked incomplete; a second one exits at once. Everywhere else (reading
 * inputs, the commands that only write: html, plot, export, compare, fleet) the first one exits
 * at once. Either way the temporary files of outputs being written are removed first, and the
 * exit status is 128 + the signal. SIGPIPE is ignored: a write to a closed pipe is an error that
 * the writer reports. */
#ifndef GS_INTERRUPT_H
#define GS_INTERRUPT_H

#include <stdbool.h>

/* Install the handlers (main calls it once); the first signal exits at once. */
void gs_interrupt_install(void);
/* While on (a measuring run), the first signal asks for a stop instead of exiting. */
void gs_interrupt_defer(bool on);
/* True once a stop was asked for. Probes check it between measurements. */
bool gs_interrupted(void);
/* The signal that asked for the stop (SIGINT, SIGTERM or SIGHUP; SIGINT for gs_interrupt_set),
 * 0 if none. */
int gs_interrupt_signal(void);
/* For tests: ask for a stop as if Ctrl-C had been pressed, or clear the request. */
void gs_interrupt_set(bool on);
/* A temporary file to remove should a signal end the process: its slot, or -1 when the list is
 * full. path is copied. */
int gs_interrupt_track_file(const char *path);
/* Forget slot (from gs_interrupt_track_file; -1 is ignored). */
void gs_interrupt_untrack_file(int slot);

#endif
