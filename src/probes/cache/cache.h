/* The cache probe's entry (src/probes/cache/): every cache and TLB level it finds, with size,
 * line, fetch, sector, sets, ways, mapping and policy. The other files of this folder are its
 * parts and share src/probes/cache/internal.h, which nothing outside the folder includes. */
#ifndef GS_PROBES_CACHE_H
#define GS_PROBES_CACHE_H

#include "probes/probe.h"

int gs_probe_cache_run(gs_probe_ctx *ctx, gs_error *err);
extern const gs_opt gs_probe_cache_opts[];
extern const int gs_probe_cache_opt_count;

#endif
