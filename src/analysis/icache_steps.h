/* The levels of an instruction-cache footprint sweep (probe icache): cycles per instruction of
 * a loop over straight-line code against the code's size steps up where the code outgrows a
 * level, as a P-chase's latency steps up where its footprint outgrows a data cache. The sweep is
 * split into plateaus (analysis/plateaus.c); every plateau followed by a higher one is a level,
 * its capacity at least the largest size on it and below the next size measured. Pure. */
#ifndef GS_ICACHE_STEPS_H
#define GS_ICACHE_STEPS_H

#include <stddef.h>

typedef struct gs_icache_level {
    double cycles_per_instruction;   /* the plateau's median */
    double bytes_low;                /* the largest code size on the plateau: the level holds it */
    double bytes_high;               /* the next size measured: the level does not hold it all */
    size_t points;                   /* sizes on the plateau */
} gs_icache_level;

/* From a sweep (bytes ascending, n points, cpi > 0): the levels whose step up is clear (the next
 * plateau's cycles per instruction above this one's by more than tolerance, relative), in order,
 * at most max, into levels; *beyond the cycles per instruction of the plateau after the last
 * level (code larger than every level found; NAN when n is 0). Returns the number of levels (0: no step in the
 * sweep), or -1 on bad input (NaN, sizes not ascending, tolerance <= 0). */
int gs_icache_steps(const double *bytes, const double *cpi, size_t n, double tolerance,
                    gs_icache_level *levels, size_t max, double *beyond);

#endif
