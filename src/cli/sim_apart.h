/* A simulated device's report on two cores: the simulator is one CPU thread, and its
 * two longest stages are the cache probe and random-walk, so on a machine with two cores or more
 * the probes marked GS_PROBE_APART run in a second process (fork, no exec: the same program, the
 * same opened model) while this one runs the others; the second sends its records back over a
 * pipe as JSON and the document keeps the probes' order. A real GPU is never split: its probes
 * would disturb each other. GS_SIM_PROCESSES=1 keeps everything in one process. */
#ifndef GS_SIM_APART_H
#define GS_SIM_APART_H

#include <stdbool.h>
#include <sys/types.h>

#include "probes/probe.h"

#define GS_APART_MAX_PROBES 64

typedef struct gs_apart {
    pid_t pid;                        /* the second process (in the first); 0: no split */
    bool child;                       /* this is the second process */
    int fd;                           /* the pipe's end this process holds */
    bool side[GS_APART_MAX_PROBES];   /* probes the second process runs */
} gs_apart;

/* Outcome counters, as run_probes.c keeps them. */
typedef struct gs_apart_outcome {
    int failed;
    bool bad_input, interrupted;
} gs_apart_outcome;

/* Split when the device is simulated, at least two cores are online, GS_SIM_PROCESSES is not 1,
 * no test asked for an interrupt, and defs hold probes of both kinds; a fork that fails leaves
 * one process. Returns whether probe i runs in this process. */
void gs_apart_start(const gs_probe_def **defs, int n, bool simulated, gs_apart *a);
bool gs_apart_mine(const gs_apart *a, int i);

/* In the second process: send its records (counts[i] records of probe i, in order) and outcome,
 * then leave without running exit handlers. */
void gs_apart_finish_child(const gs_apart *a, const gs_run *run, const int *counts, int n,
                           const gs_apart_outcome *o) __attribute__((noreturn));

/* In the first: read the second's records and outcome (stopping it first when this one was
 * interrupted), and put every record in probe order into run->probes (counts: this process's
 * records per probe). A second process that sent nothing counts its probes as failed. */
void gs_apart_merge(gs_apart *a, gs_run *run, const gs_probe_def **defs, const int *counts, int n,
                    gs_apart_outcome *o);

#endif
