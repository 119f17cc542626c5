/* What an L2 persistence window did to a hot region (probe l2-persist): the hit rate of a hot
 * measurement placed between the L2-hit plateau (warm) and the DRAM plateau (cold), and whether
 * two measurements differ beyond their intervals. Pure functions over numbers. */
#ifndef GS_PERSIST_GAIN_H
#define GS_PERSIST_GAIN_H

#include <stdbool.h>

/* Share of loads that hit, from a measurement between two plateaus (cycles per load or seconds
 * per read): (cold - hot) / (cold - warm), clamped to [0, 1]. NAN when a value is not finite or
 * the plateaus are not apart by more than `noise` (cold - warm <= noise). */
double gs_persist_hit_rate(double hot, double warm, double cold, double noise);

/* True when the intervals [a - ci_a, a + ci_a] and [b - ci_b, b + ci_b] share a point, or either
 * value is not finite (nothing can be told apart). */
bool gs_persist_overlap(double a, double ci_a, double b, double ci_b);

#endif
