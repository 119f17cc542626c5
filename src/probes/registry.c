/* The probe registry: one descriptor per probe (each in its probe's file), in the order the full
 * report runs them. Adding a probe: its file with a descriptor, one row here, one line in
 * probe.h (CONTRIBUTING.md). */
#include "probes/cache/cache.h"
#include "probes/probe.h"

const gs_probe_def *const gs_probes[] = {
    &gs_probe_clock_def,
    &gs_probe_smem_banks_def,
    /* before cache, global-patterns and bandwidth: after any of them in one process an H100's
     * L2 read ran 7-9 % slower (12.3-12.7 against 13.5-13.7 TB/s; not the buffers' placement,
     * not buffers they held, not the SM clock; docs/methods.md, mem-bandwidth), so inside a
     * report it read 12.1-13.7 where every run of the probe alone reads 13.5-13.7 */
    &gs_probe_mem_bandwidth_def,
    &gs_probe_pchase_def,
    &gs_probe_cache_def,
    &gs_probe_global_patterns_def,
    &gs_probe_bandwidth_def,
    /* after cache: a line or sector it finds under 32 B becomes the global walks' slot (not on
     * a simulated device with two cores, where it runs beside cache: its slot is 32 B there) */
    &gs_probe_random_walk_def,
    &gs_probe_paths_def,
    &gs_probe_pipeline_def,
    &gs_probe_roofline_def,
    &gs_probe_divergence_def,
    &gs_probe_l2_partitions_def,
    &gs_probe_p2p_def,
    &gs_probe_atomics_def,
    &gs_probe_cluster_def,
    &gs_probe_write_policy_def,
    &gs_probe_dram_layout_def,
    &gs_probe_l2_persist_def,
    &gs_probe_tensor_def,
    &gs_probe_launch_def,
    &gs_probe_energy_def,
    &gs_probe_icache_def,
};

const int gs_probe_count = sizeof gs_probes / sizeof gs_probes[0];
