/* Part of the backend vocabulary (src/plan.h): the write operation: loads timed after stores.
 * Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_WRITE_H
#define GS_PLAN_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/chase.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the L1 does with a global store (probe write-policy): one warp, lane 0 timing single
 * loads, the whole warp walking an eviction buffer. Each repetition, on a target line X of its
 * own (line_bytes apart, so one repetition leaves the next alone):
 *   LOAD_AFTER_STORE: X is made to be in the L1 (line_in_l1: the words at store_offset and
 *     load_offset loaded twice through path) or out of it but in the L2 (a ld.cg of X, then
 *     evict_bytes of another buffer loaded through path at evict_stride_bytes); then, if store,
 *     one st.global (store_op) of a new value to X + store_offset; settle_cycles of waiting; then
 *     one load of X + load_offset through path, timed with the SM clock (as one access of the
 *     fine-grained chase) and its value checked.
 *   VISIBILITY: two blocks on two SMs. The writer loads X twice through path (X in its L1),
 *     then stores a new value (store_op); the reader, told by a flag that the store comes,
 *     polls X with ld.cg (the L2) for at most window_cycles and records how long until it saw
 *     the new value. The writer waits window_cycles after its store before it ends (a kernel's
 *     end would write back what an L1 held). */
typedef enum gs_write_kind {
    GS_WRITE_LOAD_AFTER_STORE = 0,
    GS_WRITE_VISIBILITY,
} gs_write_kind;

typedef enum gs_store_op {
    GS_STORE_DEFAULT = 0,         /* st.global (.wb, the compiler's default) */
    GS_STORE_CG,                  /* st.global.cg: cache in the L2, not the L1 */
} gs_store_op;

typedef struct gs_write_plan {
    gs_write_kind kind;
    gs_load_path path;            /* default, ca, cg, cv or nc: the timed (and warming) loads */
    gs_store_op store_op;
    bool line_in_l1;              /* LOAD_AFTER_STORE: X loaded into the L1 first (else evicted) */
    bool store;                   /* LOAD_AFTER_STORE: false = no store (a reference latency) */
    uint32_t store_offset_bytes;  /* word of X stored (multiple of 4, < line_bytes) */
    uint32_t load_offset_bytes;   /* word of X loaded and timed (multiple of 4, < line_bytes) */
    uint32_t line_bytes;          /* distance between the repetitions' targets */
    uint64_t evict_bytes;         /* eviction walk: footprint (> the L1) */
    uint32_t evict_stride_bytes;  /* and stride (the L1's line) */
    uint32_t settle_cycles;       /* wait between the store and the timed load */
    uint64_t window_cycles;       /* VISIBILITY: how long the reader polls and the writer waits */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_write_plan;

typedef struct gs_write_result {
    double *cycles;               /* caller-allocated, repeats long. LOAD_AFTER_STORE: cycles of
                                     the timed load. VISIBILITY: reader cycles from the flag to
                                     the new value, NAN where it did not come within the window
                                     or the repetition is void */
    size_t n;
    unsigned old_values;          /* LOAD_AFTER_STORE with store, load_offset == store_offset:
                                     timed loads that returned the value before the store */
    unsigned seen;                /* VISIBILITY: repetitions whose reader saw the new value */
    unsigned void_repeats;        /* VISIBILITY: repetitions whose blocks did not meet (the
                                     handshake timed out, or both ran on one SM) */
    int sm_id;                    /* SM of the (writer) warp; -1 where not known */
    int reader_sm_id;             /* VISIBILITY: SM of the reader; -1 where not known */
} gs_write_result;

/* What every backend checks of a plan (GS_ERR_USAGE naming the field). */
int gs_write_plan_check(const gs_write_plan *p, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif
