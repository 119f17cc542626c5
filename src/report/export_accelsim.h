/* Export of a result document as a GPGPU-Sim / Accel-Sim configuration fragment (`gpusonar export
 * accel-sim RESULT.json`; docs/accel-sim-export.md says which option comes from which figure). */
#ifndef GS_REPORT_EXPORT_ACCELSIM_H
#define GS_REPORT_EXPORT_ACCELSIM_H

#include <stdio.h>

#include <jansson.h>

#include "util/error.h"

typedef struct gs_export_opts {
    unsigned l2_sub_partitions;  /* -gpgpu_n_mem x -gpgpu_n_sub_partition_per_mchannel: GPGPU-Sim's
                                    dl2 string is per sub-partition; 0 = unknown (the dl2 line is
                                    then a comment with the whole L2's geometry) */
} gs_export_opts;

/* Write the fragment for doc (schema gpusonar/1) to out: one option per line for every figure
 * the document determined, and a comment line "# -OPTION not determined: WHY" (or "not
 * expressible: WHY") for each it did not. GS_ERR_INPUT if doc is not a result document. */
int gs_export_accelsim(FILE *out, const json_t *doc, const gs_export_opts *opts, gs_error *err);

#endif
