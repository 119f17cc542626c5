/* Chains drawn ahead on a second thread (chain_ahead.h). */
#include "probes/chain_ahead.h"

#include <signal.h>
#include <stdlib.h>

#include "analysis/chain.h"

uint64_t *gs_chain_draw(gs_rng *rng, uint64_t count, uint64_t stride)
{
    uint64_t *chain = count <= SIZE_MAX / sizeof *chain ? malloc(count * sizeof *chain) : NULL;
    if (chain && gs_chain_sattolo(rng, count, stride, chain) != 0) {
        free(chain);
        chain = NULL;
    }
    return chain;
}

static void draw(gs_chain_ahead *a)
{
    a->chain = gs_chain_draw(a->rng, a->count, a->stride);
}

static void *drawer(void *arg)
{
    draw(arg);
    return NULL;
}

void gs_chain_ahead_start(gs_chain_ahead *a, gs_rng *rng, uint64_t count, uint64_t stride)
{
    *a = (gs_chain_ahead){.rng = rng, .count = count, .stride = stride, .pending = true};
    /* the thread blocks every signal (it inherits the mask it starts with): Ctrl-C reaches the
     * caller's thread, which stops the run (util/interrupt.h) */
    sigset_t all, before;
    sigfillset(&all);
    bool masked = pthread_sigmask(SIG_SETMASK, &all, &before) == 0;
    a->threaded = pthread_create(&a->thread, NULL, drawer, a) == 0;
    if (masked)
        pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (!a->threaded)
        draw(a);
}

uint64_t *gs_chain_ahead_take(gs_chain_ahead *a)
{
    if (!a->pending)
        return NULL;
    if (a->threaded)
        pthread_join(a->thread, NULL);
    a->pending = false;
    return a->chain;
}
