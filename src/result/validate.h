/* The structural check of a gpusonar/1 document (docs/gpusonar-1.schema.json), made by every
 * reader before any printer sees it. */
#ifndef GS_RESULT_VALIDATE_H
#define GS_RESULT_VALIDATE_H

#include <jansson.h>

#include "util/error.h"

/* Check a loaded document against the gpusonar/1 structure: what every printer relies on.
 * GS_ERR_INPUT naming the JSON path of the first problem
 * ("$.probes[2].figures.size_bytes.ci95: must be a number >= 0 or null"). */
int gs_report_validate(const json_t *doc, gs_error *err);

#endif
