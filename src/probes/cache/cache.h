/* The cache probe's entry (src/probes/cache/): every cache and TLB level it finds, with size,
 * line, fetch, sector, sets, ways, mapping and policy. The other files of this folder are its
 * parts and share src/probes/cache/internal.h, which nothing outside the folder includes. */
#ifndef GS_PROBES_CACHE_H
#define GS_PROBES_CACHE_H

#include "probes/probe.h"

extern const gs_probe_def gs_probe_cache_def;

#endif
