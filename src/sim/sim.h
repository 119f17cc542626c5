/* The simulator backend's internals (src/sim/ only): each section of a model file has a parser and
 * a free function, and each backend operation a simulation, in the file named beside it. */
#ifndef GS_SIM_H
#define GS_SIM_H

#include "plan.h"
#include "sim/model.h"

/* Section parsers (listed in model.c's table) and their free functions. */
int sim_memory_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);  /* memory.c */
void sim_memory_free(gs_sim_model *m);
int sim_banks_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);   /* banks.c */
void sim_banks_free(gs_sim_model *m);
int sim_pipeline_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);/* pipeline.c */
void sim_pipeline_free(gs_sim_model *m);
int sim_bandwidth_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);/* stream.c */
void sim_bandwidth_free(gs_sim_model *m);
int sim_node_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);    /* node.c */
void sim_node_free(gs_sim_model *m);
int sim_atomics_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err); /* atomics.c */
void sim_atomics_free(gs_sim_model *m);
int sim_tensor_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);  /* tensor.c */
void sim_tensor_free(gs_sim_model *m);
int sim_icache_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);  /* icache.c */
void sim_icache_free(gs_sim_model *m);
int sim_cluster_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err); /* cluster.c */
void sim_cluster_free(gs_sim_model *m);
int sim_launch_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);  /* launch.c */
void sim_launch_free(gs_sim_model *m);
int sim_energy_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err);  /* energy.c */
void sim_energy_free(gs_sim_model *m);
int sim_level_bandwidth_parse(const json_t *json, const char *where, gs_sim_model *m,
                              gs_error *err);           /* level_bandwidth.c: bandwidth.levels */
void sim_level_bandwidth_free(gs_sim_model *m);

/* What the pipeline section states for instruction type i (for the truth of src/sim/truth.c):
 * 0, or -1 when the model has no pipeline or no such type. */
int sim_pipeline_instr_truth(const gs_sim_model *m, gs_instr i, unsigned *schedulers,
                             double *units_per_sm, double *completion_cycles,
                             double *issue_cycles);                                     /* pipeline.c */

/* What the launch section states for kind k in ns (NAN: not stated, or no section), with its
 * event resolution and jitter fraction (either pointer may be NULL; launch.c). */
double sim_launch_truth(const gs_sim_model *m, gs_launch_kind k, double *resolution_ns,
                        double *jitter_fraction);

/* What the cluster section states for one transfer of `bytes` by latency kind k (bulk, load or
 * tensor latency) in cycles: NAN where not stated, or no section (cluster.c). */
double sim_cluster_transfer_truth(const gs_sim_model *m, gs_cluster_kind k, uint64_t bytes);

/* What the energy section states: idle power and pJ per operation of work w (type t for MMA;
 * NAN where not given); -1 without the section (energy.c). */
int sim_energy_truth(const gs_sim_model *m, gs_energy_work w, gs_mma_type t, double *pj,
                     double *idle_w);

/* A run of single-lane loads through the hierarchy whose state lasts from one load to the next
 * (the persist operation, l2persist.c). Begin empties every cache and TLB (geometry at the
 * driver's default carve-out) and returns NULL with *err set on failure. */
typedef struct sim_chase_ctx sim_loads;
sim_loads *sim_loads_begin(gs_sim_model *m, gs_load_path path, gs_error *err);
/* One load at addr: its cycles (no noise) and the level that served it (*served, n_caches for
 * DRAM). persisting: the load carries CUDA's persisting property at the levels with a set-aside
 * (sim_cache_access_as). */
double sim_loads_load(sim_loads *l, uint64_t addr, bool persisting, unsigned *served);
void sim_loads_end(sim_loads *l);

/* Operations. A model without the section an operation needs answers GS_ERR_UNSUPPORTED
 * naming the missing section. */
int sim_chase(gs_sim_model *m, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err);   /* memory.c */
int sim_bank(gs_sim_model *m, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err);      /* banks.c */
int sim_issue(gs_sim_model *m, const gs_issue_plan *plan, gs_issue_result *out, gs_error *err);   /* pipeline.c */
int sim_stream(gs_sim_model *m, const gs_stream_plan *plan, gs_stream_result *out, gs_error *err);/* stream.c */
int sim_p2p(gs_sim_model *m, const gs_p2p_plan *plan, gs_p2p_result *out, gs_error *err);       /* node.c */
int sim_atomic(gs_sim_model *m, const gs_atomic_plan *plan, gs_atomic_result *out,
               gs_error *err);                         /* atomics.c */
int sim_mma(gs_sim_model *m, const gs_mma_plan *plan, gs_mma_result *out, gs_error *err); /* tensor.c */
int sim_icache(gs_sim_model *m, const gs_icache_plan *plan, gs_icache_result *out,
               gs_error *err);                         /* icache.c */
int sim_cluster(gs_sim_model *m, const gs_cluster_plan *plan, gs_cluster_result *out,
                gs_error *err);                        /* cluster.c */
int sim_write(gs_sim_model *m, const gs_write_plan *plan, gs_write_result *out, gs_error *err);   /* write.c */
int sim_persist(gs_sim_model *m, const gs_persist_plan *plan, gs_persist_result *out,
                gs_error *err);                        /* l2persist.c */
int sim_evict(gs_sim_model *m, const gs_evict_plan *plan, gs_evict_result *out,
              gs_error *err);                          /* evict.c */
int sim_launch(gs_sim_model *m, const gs_launch_plan *plan, gs_launch_result *out,
               gs_error *err);                         /* launch.c */
int sim_energy(gs_sim_model *m, const gs_energy_plan *plan, gs_energy_result *out,
               gs_error *err);                         /* energy.c */
int sim_level_stream(gs_sim_model *m, const gs_stream_plan *plan, gs_stream_result *out,
                     gs_error *err);                   /* level_bandwidth.c: the level kinds */

#endif
