/* Suggestions for unknown words (suggest.h). */
#include "util/suggest.h"

#include <stdio.h>
#include <string.h>

#define WORD_MAX 64

int gs_edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen > WORD_MAX || blen > WORD_MAX)
        return WORD_MAX;
    int d[WORD_MAX + 1][WORD_MAX + 1];
    for (size_t i = 0; i <= alen; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= blen; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= alen; i++)
        for (size_t j = 1; j <= blen; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[alen][blen];
}

/* Whether word's letters appear in known in order, starting with the same letter ("md" in
 * "markdown"): an abbreviation. */
static int abbreviates(const char *word, const char *known, size_t len)
{
    if (!*word || !len || *word != *known)
        return 0;
    size_t k = 0;
    for (const char *w = word; *w; w++) {
        while (k < len && known[k] != *w)
            k++;
        if (k == len)
            return 0;
        k++;
    }
    return 1;
}

void gs_suggest_init(gs_suggest *s, const char *word)
{
    memset(s, 0, sizeof *s);
    s->word = word;
    s->best_score = 1 << 20;
}

/* A likely typo: at most one edit in a short word, two in a longer one (a third of its length).
 * Otherwise an abbreviation of two letters or more, ranked after every typo. */
static int score(const char *word, const char *known, size_t len)
{
    size_t wlen = strlen(word);
    int d = gs_edit_distance(word, wlen, known, len);
    int limit = wlen <= 4 ? 1 : wlen / 3 < 2 ? 2 : (int)(wlen / 3);
    if (d <= limit && d < (int)len)
        return d;
    if (wlen >= 2 && wlen < len && abbreviates(word, known, len))
        return 100 + (int)(len - wlen);
    return -1;
}

void gs_suggest_offer(gs_suggest *s, const char *known, size_t len)
{
    int v = score(s->word, known, len);
    if (v < 0)
        return;
    if (s->best && v == s->best_score && (len != s->best_len || memcmp(known, s->best, len))) {
        s->ties++;
        return;
    }
    if (v < s->best_score) {
        s->best = known, s->best_len = len, s->best_score = v, s->ties = 0;
    }
}

void gs_suggest_offer_list(gs_suggest *s, const char *list)
{
    for (const char *p = list; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        gs_suggest_offer(s, p, len);
        p = bar ? bar + 1 : NULL;
    }
}

const char *gs_suggest_text(const gs_suggest *s, const char *prefix, char *buf, size_t len)
{
    buf[0] = '\0';
    /* An abbreviation is only a suggestion when it names one word. */
    if (s->best && (s->best_score < 100 || s->ties == 0))
        snprintf(buf, len, " (did you mean '%s%.*s'?)", prefix ? prefix : "", (int)s->best_len,
                 s->best);
    return buf;
}
