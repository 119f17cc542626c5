/* A probe's report hints as JSON (hints.h). */
#include "result/hints.h"

json_t *gs_hints_json(const gs_hints *h)
{
    if (!h || (!h->headline && !h->columns && !h->table))
        return NULL;
    json_t *o = json_object();
    if (h->headline) {
        json_t *a = json_array();
        for (const char *const *p = h->headline; *p; p++)
            json_array_append_new(a, json_string(*p));
        json_object_set_new(o, "headline", a);
    }
    if (h->columns) {
        json_t *a = json_array();
        for (const gs_hint_column *c = h->columns; c->suffix; c++)
            json_array_append_new(a, json_pack("{s:s, s:s}", "suffix", c->suffix, "label",
                                               c->label));
        json_object_set_new(o, "columns", a);
        json_object_set_new(o, "rows", json_string(h->rows ? h->rows : ""));
    }
    if (h->table)
        json_object_set_new(o, "table", json_string(h->table));
    return o;
}
