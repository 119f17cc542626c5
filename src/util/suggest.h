/* "Did you mean ...?": the nearest of a set of known words (commands, probes, options, values) to
 * a word that is none of them, by edit distance (an adjacent swap counts as one edit, as typing
 * errors go), or the one known word the given one abbreviates ("md" for "markdown"). */
#ifndef GS_SUGGEST_H
#define GS_SUGGEST_H

#include <stddef.h>

typedef struct gs_suggest {
    const char *word;        /* what was typed */
    const char *best;        /* the nearest known word so far (not NUL-terminated: best_len) */
    size_t best_len;
    int best_score;          /* lower is nearer */
    int ties;                /* other known words as near as best */
} gs_suggest;

/* Start looking for the nearest known word to word. */
void gs_suggest_init(gs_suggest *s, const char *word);
/* Offer the known word known[0..len). */
void gs_suggest_offer(gs_suggest *s, const char *known, size_t len);
/* Offer each word of a '|'-separated list ("text|markdown|csv"). */
void gs_suggest_offer_list(gs_suggest *s, const char *list);
/* The suggestion as " (did you mean 'WORD'?)" (with prefix before WORD, "--" for options) in buf,
 * or "" when no known word is near enough to be a likely typo. Returns buf. */
const char *gs_suggest_text(const gs_suggest *s, const char *prefix, char *buf, size_t len);

/* Edit distance (optimal string alignment: insert, delete, substitute, swap two neighbours). */
int gs_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
