/* Chains drawn ahead on a second thread (chain_ahead.h). */
#include "probes/chain_ahead.h"

#include <signal.h>
#include <stdlib.h>

#include "analysis/chain.h"

static void draw(gs_chain_ahead *a)
{
    a->chain = a->count <= SIZE_MAX / sizeof *a->chain ? malloc(a->count * sizeof *a->chain)
                                                       : NULL;
    if (a->chain && gs_chain_sattolo(a->rng, a->count, a->stride, a->chain) != 0) {
        free(a->chain);
        a->chain = NULL;
    }
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
