/* The truth of a simulator model: for every probe record a model can be checked against, the
 * figures the model file states, named as the probes name them (`gpusonar verify`,
 * src/report/verify.c). Only figures that are exactly what the model states are given; a figure
 * that depends on more than the model says (a cache's miss penalty, which is the next level's
 * latency; a hit latency on a level larger than the first TLB's reach) is left out.
 *
 * The document: {"model": NAME, "records": {KEY: {FIGURE: TRUTH, ...}, ...}} where KEY is the
 * probe name, with ":LEVEL" for records that carry a level ("cache:l1", "cache:l2tlb",
 * "smem-banks", "pipeline", "clock"), and TRUTH is
 *   {"value": V, "kind": K, "noise": N, "from": "where in the model file"}
 * V is a number, a string, a list of numbers, or null (the model has no such level: the probe
 * should find none). K says how a verdict is reached (verify.h):
 *   "structure"    counts, sizes, bits, names: equal or wrong
 *   "latency"      cycles: within a relative tolerance or the model's noise N (cycles, >= 0)
 *   "clock"        kHz: within a relative tolerance or N (kHz)
 *   "measured"     a time, power or energy in the figure's unit: within N (the model's
 *                  jitter), else as a latency (and always within the probe's interval)
 *   "probability"  lists of way shares: each within 0.05 */
#ifndef GS_SIM_TRUTH_H
#define GS_SIM_TRUTH_H

#include <jansson.h>

#include "sim/model.h"
#include "util/error.h"

/* The truth of model m into *truth (a new reference). GS_ERR_NO_MEMORY on failure. */
int gs_sim_truth(const gs_sim_model *m, json_t **truth, gs_error *err);

#endif
