/* The step of a quantized timer from the values it gave: timings that a clock rounds to whole
 * ticks take only multiples of the tick, so the smallest gap between two distinct values is one
 * tick (or a multiple, when too few values fall on neighbouring ticks). Pure: arrays in, a
 * number out. */
#ifndef GS_TIMER_STEP_H
#define GS_TIMER_STEP_H

#include <stddef.h>

/* The smallest gap larger than tol between distinct finite values of x[0..n) (the array is left
 * as it is); NAN when fewer than two values differ by more than tol, or out of memory. tol
 * absorbs the rounding of a tick count read through a float (cudaEventElapsedTime's ms). */
double gs_timer_step(const double *x, size_t n, double tol);

#endif
