/* A Sattolo chain drawn on a second thread while the caller walks the one before it: on a GPU a
 * walk waits on the card and the next chain's drawing on the host, and one after the other they
 * add (an H200's random walk: 22-27 million elements drawn in 0.5 s between 3.7-5.0 s of walks).
 * The chains are the same as gs_chain_sattolo draws one after another from the same rng. */
#ifndef GS_CHAIN_AHEAD_H
#define GS_CHAIN_AHEAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/rng.h"

typedef struct gs_chain_ahead {
    pthread_t thread;
    bool threaded;          /* a thread draws it (else it was drawn at start) */
    bool pending;           /* started, not yet taken */
    gs_rng *rng;
    uint64_t count, stride;
    uint64_t *chain;        /* NULL: out of host memory */
} gs_chain_ahead;

/* A chain of count elements stride bytes apart drawn now (gs_chain_sattolo, malloc'd: the caller
 * frees it), or NULL when host memory ran out. */
uint64_t *gs_chain_draw(gs_rng *rng, uint64_t count, uint64_t stride);

/* Starts drawing gs_chain_sattolo(rng, count, stride) (drawn at once where no thread starts).
 * rng is the drawing's until gs_chain_ahead_take: the caller draws nothing from it meanwhile. */
void gs_chain_ahead_start(gs_chain_ahead *a, gs_rng *rng, uint64_t count, uint64_t stride);

/* Waits for the chain started last and hands it over (the caller frees it): NULL when host memory
 * ran out or none is pending. */
uint64_t *gs_chain_ahead_take(gs_chain_ahead *a);

#endif
