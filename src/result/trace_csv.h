/* Raw fine-grained traces as CSV (`gpusonar run pchase --trace FILE`): one row per recorded access
 * with the chain position, the byte offset it visited and its latency. Written through
 * gs_outfile (util/outfile.h), like every output file. */
#ifndef GS_TRACE_CSV_H
#define GS_TRACE_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Row i: i, offsets[i % chain_len], latency_cycles[i]. 0 or GS_ERR_IO. */
int gs_trace_csv_write(const char *path, const uint64_t *offsets, size_t chain_len,
                       const uint32_t *latency_cycles, size_t n, gs_error *err);

#endif
