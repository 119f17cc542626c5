/* The probe registry: one row per probe, in the order the full report runs them. Adding a probe
 * is one row here plus its file (STYLE.md, after git's command table). */
#include "probes/probe.h"

const gs_probe_def gs_probes[] = {
    {"clock", gs_probe_clock_run, GS_PROBE_DEFAULT,
     "SM clock frequency, its stability, and the cost of clock64 and globaltimer reads",
     gs_probe_clock_opts, &gs_probe_clock_opt_count},
    {"smem-banks", gs_probe_smem_banks_run, GS_PROBE_DEFAULT,
     "shared-memory bank count, bank width and cost per way of conflict, from stride sweeps",
     gs_probe_smem_banks_opts, &gs_probe_smem_banks_opt_count},
    {"pchase", gs_probe_pchase_run, 0,
     "one pointer chase (space, path, array, stride, warm-up); summary and raw trace (--trace)",
     gs_probe_pchase_opts, &gs_probe_pchase_opt_count},
    {"cache", gs_probe_cache_run, GS_PROBE_DEFAULT,
     "cache and TLB structure: size, line, sector, sets, ways, mapping, policy, latencies",
     gs_probe_cache_opts, &gs_probe_cache_opt_count},
    {"global-patterns", gs_probe_global_patterns_run, GS_PROBE_DEFAULT,
     "global-memory latency per pattern and load path (Table 3), and warp coalescing: line and sector of a request",
     gs_probe_global_patterns_opts, &gs_probe_global_patterns_opt_count},
    {"bandwidth", gs_probe_bandwidth_run, GS_PROBE_DEFAULT,
     "copy and read kernels per element size and loop bound, cudaMemcpy D2D/H2D/D2H, in GB/s",
     gs_probe_bandwidth_opts, &gs_probe_bandwidth_opt_count},
    {"mem-bandwidth", gs_probe_mem_bandwidth_run, GS_PROBE_DEFAULT,
     "read, write, copy and STREAM kernels over footprints from the L1 to DRAM: GB/s per level",
     gs_probe_mem_bandwidth_opts, &gs_probe_mem_bandwidth_opt_count},
    /* after cache: a line or sector it finds under 32 B becomes the global walks' slot */
    {"random-walk", gs_probe_random_walk_run, GS_PROBE_DEFAULT,
     "Sattolo random walks in global/shared/constant/local memory, Eq. 6 levels, walkers sweep",
     gs_probe_random_walk_opts, &gs_probe_random_walk_opt_count},
    {"paths", gs_probe_paths_run, 0,
     "per global load path (ld, ca, cg, cv, nc, tex, const): latency plateaus and the levels it passes",
     gs_probe_paths_opts, &gs_probe_paths_opt_count},
    {"pipeline", gs_probe_pipeline_run, GS_PROBE_DEFAULT,
     "issue latency lambda and completion latency Lambda per instruction type at ILP 1, 2, 4",
     gs_probe_pipeline_opts, &gs_probe_pipeline_opt_count},
    {"roofline", gs_probe_roofline_run, GS_PROBE_DEFAULT,
     "occupancy roofline per instruction type, ridge point, and the pipeline model's prediction",
     gs_probe_roofline_opts, &gs_probe_roofline_opt_count},
    {"divergence", gs_probe_divergence_run, 0,
     "throughput against the number of divergent paths in a warp (1 to 32)",
     gs_probe_divergence_opts, &gs_probe_divergence_opt_count},
    {"l2-partitions", gs_probe_l2_partitions_run, 0,
     "L2 near and far partitions from one SM: latencies, share of far lines, address hash",
     gs_probe_l2_partitions_opts, &gs_probe_l2_partitions_opt_count},
};

const int gs_probe_count = sizeof gs_probes / sizeof gs_probes[0];
