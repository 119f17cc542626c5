/* Long text in the text report: reasons and messages wrapped at word boundaries to the report's
 * width, and shortened to their first clause where the report gives only the headline (the
 * document keeps the whole text). Widths count characters, not bytes (λ, ± are two bytes). */
#ifndef GS_WRAP_H
#define GS_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The width the report wraps at: the terminal's columns when out is a terminal, at most 100;
 * 100 otherwise (a file, a pipe). */
int gs_wrap_width(FILE *out);

/* Characters (not bytes) of a UTF-8 string. */
size_t gs_wrap_chars(const char *s);

/* Print text wrapped to width columns: the first line continues a line already at column
 * `column`, each further line starts with `indent` spaces; ends with a newline. A word longer
 * than a line is printed whole on its own line, never cut. */
void gs_wrap_print(FILE *out, const char *text, int column, int indent, int width);

/* The first clause of text into buf: up to the first '.', ';' or ':' followed by a blank outside
 * parentheses, once at least 16 characters are in; true if something was left out. A buffer too
 * short for the clause ends at a word boundary. */
bool gs_wrap_first_clause(const char *text, char *buf, size_t len);

/* text into a cell of at most width characters, cut at a word boundary with "…" when it is
 * longer (never inside a word; a first word longer than the cell is cut with "…"). */
void gs_wrap_cell(const char *text, size_t width, char *buf, size_t len);

#endif
