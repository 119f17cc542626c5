/* Ctrl-C: the first SIGINT (or SIGTERM) asks the run to stop after the current measurement, so
 * the result document is still written, marked incomplete; a second one exits at once. */
#ifndef GS_INTERRUPT_H
#define GS_INTERRUPT_H

#include <stdbool.h>

/* Install the handlers (main calls it once). */
void gs_interrupt_install(void);
/* True once a stop was asked for. Probes check it between measurements. */
bool gs_interrupted(void);
/* The signal that asked for the stop (SIGINT or SIGTERM; SIGINT for gs_interrupt_set), 0 if none. */
int gs_interrupt_signal(void);
/* For tests: ask for a stop as if Ctrl-C had been pressed, or clear the request. */
void gs_interrupt_set(bool on);

#endif
