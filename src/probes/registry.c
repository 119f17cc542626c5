/* The probe registry: one row per probe, in the order the full report runs them. Adding a probe
 * is one row here plus its file (STYLE.md, after git's command table). */
#include "probes/probe.h"

const gs_probe_def gs_probes[] = {
    {"clock", gs_probe_clock_run, GS_PROBE_DEFAULT,
     "SM clock frequency, its stability, and the cost of clock64 and globaltimer reads",
     gs_probe_clock_opts, &gs_probe_clock_opt_count},
};

const int gs_probe_count = sizeof gs_probes / sizeof gs_probes[0];
