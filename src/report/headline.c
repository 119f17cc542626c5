/* The headline figures of each probe (headline.h): what a reader compares between cards first.
 * Per-ILP figures, nanosecond twins of cycle figures, fit residuals and every figure of a sweep
 * stay in --details and the document. */
#include "report/headline.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

const gs_headline *gs_headline_of(const json_t *record, gs_headline *h)
{
    const json_t *hints = json_object_get(record, "hints");
    if (!json_is_object(hints))
        return NULL;
    memset(h, 0, sizeof *h);
    const json_t *list = json_object_get(hints, "headline"), *cols = json_object_get(hints,
                                                                                     "columns");
    size_t i, n = 0;
    json_t *v;
    if (json_is_array(list)) {
        json_array_foreach(list, i, v)
            if (json_is_string(v) && n < GS_HEADLINE_MAX)
                h->figure_store[n++] = json_string_value(v);
        h->figures = h->figure_store;
    }
    n = 0;
    if (json_is_array(cols)) {
        json_array_foreach(cols, i, v) {
            const char *suffix = json_string_value(json_object_get(v, "suffix"));
            const char *label = json_string_value(json_object_get(v, "label"));
            if (suffix && *suffix && label && n < GS_HEADLINE_MAX)
                h->column_store[n++] = (gs_headline_column){suffix, label};
        }
        h->columns = n ? h->column_store : NULL;
        h->row_label = json_string_value(json_object_get(hints, "rows"));
        if (!h->row_label)
            h->row_label = "";
    }
    h->table = json_string_value(json_object_get(hints, "table"));
    if (!h->figures && !h->columns && !h->table)
        return NULL;
    return h;
}

bool gs_headline_line(const gs_headline *h, const char *figure)
{
    if (!h || !h->figures)
        return true;
    for (const char *const *p = h->figures; *p; p++)
        if (fnmatch(*p, figure, 0) == 0)
            return true;
    return false;
}

bool gs_headline_cell(const gs_headline *h, const char *figure, int *column, char *row,
                      unsigned len)
{
    size_t n = strlen(figure);
    for (int c = 0; h && h->columns && h->columns[c].suffix; c++) {
        size_t s = strlen(h->columns[c].suffix);
        if (n <= s + 1 || figure[n - s - 1] != '_' || strcmp(figure + n - s,
                                                             h->columns[c].suffix) != 0)
            continue;
        size_t r = n - s - 1;
        if (memchr(figure, '_', r) || r + 1 > len)
            continue;
        memcpy(row, figure, r);
        row[r] = '\0';
        *column = c;
        return true;
    }
    return false;
}

void gs_headline_label(const char *figure, char *buf, unsigned len)
{
    size_t used = 0;
    const char *p = figure;
    if (len == 0)
        return;
    while (*p && used + 1 < len) {
        bool start = p == figure || p[-1] == '_';
        const char *word = NULL;
        size_t skip = 0;
        if (start && strncmp(p, "lambda", 6) == 0 && (p[6] == '_' || !p[6]))
            word = "issue_latency", skip = 6;
        else if (start && strncmp(p, "Lambda", 6) == 0 && (p[6] == '_' || !p[6]))
            word = "completion_latency", skip = 6;
        if (word) {
            int w = snprintf(buf + used, len - used, "%s", word);
            used = w < 0 || (size_t)w >= len - used ? len - 1 : used + (size_t)w;
            p += skip;
        } else {
            buf[used++] = *p++;
        }
    }
    buf[used] = '\0';
}
