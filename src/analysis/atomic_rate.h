/* Rates of atomic throughput launches (probe atomics): each launch performs a known number of
 * atomics in a measured time; its rate in Gop/s, per SM clock of the whole GPU and per clock per
 * SM, as median and ci95 over the launches; and how many iterations make a launch last a target
 * time. Pure: no device. */
#ifndef GS_ATOMIC_RATE_H
#define GS_ATOMIC_RATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_atomic_rate {
    size_t n;                     /* launches used (finite positive times, outliers dropped) */
    double gops, gops_ci95;       /* 1e9 atomics per second of the whole GPU */
    double per_clock, per_clock_ci95;           /* atomics per SM clock, whole GPU; NAN when the
                                                   clock is unknown */
    double per_clock_per_sm, per_clock_per_sm_ci95;  /* the same over sms; NAN when unknown */
} gs_atomic_rate;

/* seconds[0..n) of launches performing operations atomics each, at clock_khz (0: unknown) on sms
 * SMs (0: unknown). 0, or -1 when no launch has a finite time > 0 or operations is 0. */
int gs_atomic_rate_of(const double *seconds, size_t n, uint64_t operations, double clock_khz,
                      int sms, gs_atomic_rate *out);

/* Iterations that make a launch of `iterations` that took `seconds` last target_s: scaled in
 * proportion, rounded up, within [1, max_iterations]; a time of 0 or NaN (too short to see)
 * scales by 16. */
uint64_t gs_atomic_iterations_for(uint64_t iterations, double seconds, double target_s,
                                  uint64_t max_iterations);

#endif
