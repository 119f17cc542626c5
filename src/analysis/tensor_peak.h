/* The dense tensor-core peak a device implies (probe tensor): operations per clock per SM of each
 * MMA input type per architecture, as NVIDIA's whitepapers publish them (tensor_peak.c cites each
 * one), and the measured rate's fraction of it. A published figure, not a measurement: the probe
 * reports it beside what it measured, never in its place. Pure: no device. */
#ifndef GS_TENSOR_PEAK_H
#define GS_TENSOR_PEAK_H

#include <stdbool.h>
#include <stddef.h>

/* The dense peak of input type `type` ("f16", "bf16", "tf32", "e4m3", "s8", "f64", "e5m2": the
 * names of plan.h's gs_mma_type) on compute capability major.minor in flops (s8: integer
 * operations) per clock per SM; consumer selects the GeForce rate where the whitepaper gives GeForce parts a
 * half-rate f32 accumulate. 0 with *source the whitepaper, or -1 with why ("no published peak for
 * sm_87") when none is known. */
int gs_tensor_peak(int cc_major, int cc_minor, const char *type, bool consumer,
                   double *flops_per_clock_per_sm, const char **source, char *why, size_t why_len);

/* The structured-sparsity (2:4; tf32 1:2) peak of mma.sp on type `type`: the whitepapers' sparse
 * rows are twice their dense ones for every type with a sparse MMA (A100 table 1, GA102 appendix,
 * Ada appendix, H100 table 2), in the dense product's operations, as the probe counts them. The
 * dense peak x 2 with the dense peak's source; -1 with why where there is no dense peak, for f64
 * (no sparse DMMA), and before sm_80 (structured sparsity came with Ampere). */
int gs_tensor_sparse_peak(int cc_major, int cc_minor, const char *type, bool consumer,
                          double *flops_per_clock_per_sm, const char **source, char *why,
                          size_t why_len);

/* Whether a device name is a GeForce part (the whitepapers' consumer rates). */
bool gs_tensor_consumer_name(const char *device_name);

/* Whether a measured rate lies above a physical peak beyond its own interval: measured - ci95 >
 * peak (both per clock per SM). No unit does more than its peak, so such a rate counts work the
 * kernel did not do, or a clock that read low: it is refused, never printed as a fraction above
 * 1. False when either is not a finite positive number. */
bool gs_rate_above_peak(double measured, double ci95, double peak);

/* measured / peak, NAN when either is not a finite positive number. */
double gs_tensor_fraction_of_peak(double measured, double peak);

#endif
