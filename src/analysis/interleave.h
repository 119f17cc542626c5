/* DRAM channel interleaving from a strided-read bandwidth sweep (docs/methods.md, "dram-layout";
 * the memory partitions and address interleaving of the textbook chapter, Section 4.2). With
 * plain interleaving (channel = (address / G) mod C), chunks read at stride S keep every channel
 * busy while S <= G, half of them at 2G, ..., one channel from the smallest S that is a multiple
 * of C x G on: bandwidth falls to 1/C of the best there. A hashed mapping never concentrates a
 * power-of-two stride, and the curve stays flat. Pure. */
#ifndef GS_INTERLEAVE_H
#define GS_INTERLEAVE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gs_interleave {
    double best_gbps;             /* the largest bandwidth of the sweep */
    double floor_gbps;            /* the smallest */
    double drop;                  /* best / floor */
    bool collapsed;               /* floor <= best / GS_INTERLEAVE_MIN_DROP */
    bool span_found;              /* span_bytes: the smallest stride at the floor, and every
                                     measured multiple of it at the floor too */
    double span_bytes;            /* C x G */
    bool granularity_found;       /* interleave_bytes: the last power-of-two stride before the
                                     first one below GS_INTERLEAVE_FULL of the best */
    double interleave_bytes;      /* G */
    bool channels_found;          /* span / G an integer >= 2 that agrees with the drop (within
                                     a factor of 1.5) */
    double channels;              /* C */
    char why[400];                /* why the first figure not found is not ("" when all are) */
} gs_interleave;

#define GS_INTERLEAVE_MIN_DROP 3.0   /* a collapse: the floor at most 1/3 of the best */
#define GS_INTERLEAVE_FLOOR_TOL 1.3  /* a stride is at the floor within this factor */
#define GS_INTERLEAVE_FULL 0.7       /* a stride keeps every channel busy at this share */

/* stride_bytes ascending (any mix of powers of two and other multiples), gbps of each; n >= 3.
 * 0, or -1 on bad input (n < 3, a stride not ascending, a value not finite and positive). */
int gs_interleave_infer(const double *stride_bytes, const double *gbps, size_t n,
                        gs_interleave *out);

#endif
