/* The physical peak of every rate gpusonar prints, in one place: a table of per-SM limits per
 * architecture family (each row citing its document), a table that names which limit bounds
 * which figure, and one check that refuses a rate above its peak beyond its interval. The limit
 * per clock per SM times the SMs times the measured SM clock is the peak of a rate per second;
 * the DRAM's is the driver's bus width times its memory clock. */
#ifndef GS_RATE_PEAK_H
#define GS_RATE_PEAK_H

#include <stdbool.h>
#include <stddef.h>

/* What the peak check needs to know of the device. */
typedef struct gs_peak_device {
    int cc_major, cc_minor;
    int sm_count;
    int warp_size;
    double clock_khz;          /* the measured SM clock (the clock probe's figure) */
    double mem_clock_khz;      /* the driver's memory clock, 0 unknown */
    int mem_bus_bits;          /* the driver's memory bus width, 0 unknown */
    double l2_bytes;           /* the driver's L2 size */
    bool consumer;             /* a GeForce part (half-rate f32-accumulate MMA) */
} gs_peak_device;

/* A figure's peak in the figure's own unit, and how it was made. */
typedef struct gs_peak {
    double value;
    char source[400];          /* "128 B per clock per SM (CUDA C++ Programming Guide: ...) x
                                  132 SMs x 1,980 MHz" */
} gs_peak;

/* The peak of figure `name` of probe `probe` in `unit`: 0 with *peak, or -1 with why (not a
 * rate, no limit known for the figure, no row for the architecture, no clock). footprint_bytes
 * is the record's working set when it names one (the bandwidth probe's "bytes"), else 0. */
int gs_rate_peak(const gs_peak_device *d, const char *probe, const char *name, const char *unit,
                 double footprint_bytes, gs_peak *peak, char *why, size_t why_len);

/* The timing's own systematic error, which no interval holds: a rate is work over a timed
 * window, and the window's edges (launch, the first and last clock reads) are the same in every
 * repetition (64-lane pipes read 1.0007-1.0013 of their lanes on an H200 with intervals near 0);
 * a rate up to this fraction above its peak is kept, its fraction above 1 showing it. */
#define GS_PEAK_TIMING_TOLERANCE 0.005

/* Whether measured +- ci95 lies above the peak (plus GS_PEAK_TIMING_TOLERANCE) beyond its
 * interval (refused); when it does, the reason a "not determined" figure gives: how far above,
 * the peak and its source. */
bool gs_rate_refused(double measured, double ci95, const char *unit, const gs_peak *peak,
                     char *reason, size_t reason_len);

/* A number with thousands separators and `decimals` decimals ("33,454", "1,980", "0.5"). */
void gs_peak_number(double value, int decimals, char *buf, size_t len);

#endif
