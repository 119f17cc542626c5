/* Energy per operation from a total-energy counter that updates in steps (NVML's, every 100 ms or
 * so): the power between two updates is exact up to when each was seen, so powers are taken
 * between counter changes, never between arbitrary reads, which would miss up to a whole step at
 * each end. Pure: arrays in, numbers out. */
#ifndef GS_ENERGY_H
#define GS_ENERGY_H

#include <stddef.h>

/* Powers over `parts` consecutive spans of the counter's changes seen in [from_s, to_s] (t_s and
 * mj, n reads in time order; a change is a read whose value differs from the one before), each
 * span between two changes, the spans sharing their ends and holding about equal counts of
 * update intervals: watts[i] and span_s[i]. Returns the spans made (parts, or 0 when fewer than
 * parts + 1 changes fall in the window). */
size_t gs_energy_powers(const double *t_s, const double *mj, size_t n, double from_s,
                        double to_s, size_t parts, double *watts, double *span_s);

/* The median gap between successive reads (how late a change may be seen), NAN for n < 2. */
double gs_energy_read_gap_s(const double *t_s, size_t n);

/* Picojoules per operation: (work power - idle power) / (ops per second). NAN unless rate > 0. */
double gs_energy_pj(double work_w, double idle_w, double ops_per_s);

#endif
