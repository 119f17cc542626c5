/* The cross-check of a result document (docs/methods.md, "Cross-check"): every structure that
 * several probes measure (L1, L2, shared memory, the constant cache, DRAM...) as each of them
 * sees it, with its interval and instruction sequence, and a verdict made from the records alone
 * after the probes ran. */
#ifndef GS_RESULT_CROSSCHECK_H
#define GS_RESULT_CROSSCHECK_H

#include <jansson.h>

/* The "crosscheck" list of doc, computed from its probe records: one entry per structure seen
 * by at least two of its figures, each with "structure", "unit", "verdict" (agree, apart: every
 * difference has its named reason, or unexplained), "tolerance", "tolerance_reason", "quote" (the
 * figure to quote) and "views" (probe, figure, value, low, high, sequence, relation, verdict,
 * reason). A new reference; an empty list when no structure has two views. NULL on out of
 * memory. */
json_t *gs_crosscheck_compute(const json_t *doc);

/* Sets doc["crosscheck"] to gs_crosscheck_compute(doc) (called when a run finishes). */
void gs_crosscheck_attach(json_t *doc);

/* The document's own "crosscheck" list when it has one, else one computed from its records (a
 * document written before the cross-check existed); a new reference, NULL on out of memory. */
json_t *gs_crosscheck_of(const json_t *doc);

#endif
