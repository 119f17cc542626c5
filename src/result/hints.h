/* How a probe's record reads in the text report, written into the record by the runner
 * ("hints") so that a printer never picks a probe by its name and a saved document reads the
 * same wherever it goes: the headline figures (shown without --details), a table of figures
 * "<row>_<suffix>" with a column per suffix, or a table printer of its own. */
#ifndef GS_RESULT_HINTS_H
#define GS_RESULT_HINTS_H

#include <jansson.h>

/* A column of a headline table: figures "<row>_<suffix>", one row per row name without '_'. */
typedef struct gs_hint_column {
    const char *suffix;
    const char *label;            /* the column's heading, with its unit */
} gs_hint_column;

typedef struct gs_hints {
    const char *const *headline;  /* fnmatch patterns of the headline figures, NULL-terminated;
                                     NULL: every figure; {"-", NULL}: none (a table is) */
    const char *rows;             /* with columns: the first column's heading ("itype") */
    const gs_hint_column *columns;/* NULL, or columns ended by a NULL suffix */
    const char *table;            /* a printer of its own: "atomics", "tensor" or "l2-persist" */
} gs_hints;

/* The hints as the record's "hints" object; NULL when h says nothing (every figure a headline). */
json_t *gs_hints_json(const gs_hints *h);

#endif
