/* Which memory level serves each plateau of a bandwidth footprint sweep (probe mem-bandwidth):
 * the plateaus come from gs_plateaus_find on GB/s against footprint; a level's figure is the
 * plateau holding the most sweep points inside that level's footprint range (L1: up to the L1
 * size, L2: above it up to the L2 size, DRAM: from 5 x the L2 size on), over those points only.
 * A footprint between the L2 size and 5 x it belongs to no level: the L2 still serves part of it
 * up to twice its size (an H100's copy ran 3.2 TB/s at 1.3 x L2 and 2.9 beyond 2 x L2), and a
 * plateau reaching into it widened the DRAM figure's interval 15-47 fold under --thorough; up to
 * about 3.5 x L2 an H100's copy, scale, add and triad still ran 0.3-0.5 % below their rate
 * beyond, in three runs of three (docs/hardware/h100.md), enough to widen the
 * interval of a figure whose points otherwise agree within 0.1 %; and at 4.3 x L2 the triad
 * still ran 0.29-0.42 % low in each of seven --thorough runs, within 0.06 % from 5.1 x on
 * (docs/hardware/h100.md), so the range starts at 5 x. A plateau
 * that spans two ranges serves both (a store that the L1 writes through runs at the L2's rate at
 * L1 footprints). Pure. */
#ifndef GS_BW_LEVELS_H
#define GS_BW_LEVELS_H

#include <stddef.h>

#include "analysis/plateaus.h"

enum { GS_BW_NONE = -1, GS_BW_L1 = 0, GS_BW_L2, GS_BW_DRAM, GS_BW_LEVELS };

#define GS_BW_DRAM_FROM_L2 5      /* the DRAM range starts at this many times the L2 size */

/* Level names as figures spell them: "l1", "l2", "dram". */
const char *gs_bw_level_name(int level);

/* The level a footprint falls in (l1_bytes 0: no L1 range); GS_BW_NONE between the L2 size and
 * GS_BW_DRAM_FROM_L2 x it. */
int gs_bw_level_of(double footprint_bytes, double l1_bytes, double l2_bytes);

/* The points of plateau q (of the sweep x[]) in level's range: their indices into x, in order,
 * written to idx (room for q->count); returns how many. */
size_t gs_bw_level_points(const gs_plateau *q, const double *x, int level, double l1_bytes,
                          double l2_bytes, size_t *idx);

/* For each level, the index into p (count plateaus of the sweep x[]) of the plateau with the most
 * points whose footprints fall in that level's range, at least min_points of them; the higher
 * plateau on a tie; -1 where no plateau has min_points there. */
void gs_bw_levels_pick(const gs_plateau *p, int count, const double *x, double l1_bytes,
                       double l2_bytes, size_t min_points, int pick[GS_BW_LEVELS]);

#endif
