/* One escaping rule per output format, applied by each writer to every string that comes from a
 * document or a command line (a device name, a reason, a probe name): such text never brings a
 * raw newline or control character into a configuration line, a terminal or a spreadsheet.
 *   text (reports, compare, fleet, verify, error messages): control characters C0, DEL, C1, the
 *     bidirectional overrides and invalid UTF-8 bytes become visible escapes (\n, \t, \r, \x1b,
 *     \u009b, \u202e); everything else, backslash included, is kept as it is;
 *   markdown: the text rule, and '|' as "\|" so a cell stays one cell;
 *   CSV: the text rule, a text cell that starts with = + - @ tab or CR (and is not a plain number)
 *     gets a leading single quote, as spreadsheet programs require against formula injection,
 *     and every cell is quoted as RFC 4180 asks;
 *   HTML: & < > " ' as character references, so text lands only in HTML text or attribute values;
 *   configuration comments (export): the text rule, so a comment line stays one line. */
#ifndef GS_ESCAPE_H
#define GS_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The text rule: s (NULL as "") with its control characters as visible escapes, in one of a few
 * static buffers that are reused in turn (not thread-safe; the writers run on one thread) (up to GS_ESC_SLOTS results may be alive at once,
 * enough for the arguments of one printf). Never NULL; never truncated. */
#define GS_ESC_SLOTS 16
const char *gs_esc(const char *s);

/* The text rule into dst (len bytes, always terminated; a character or escape is never cut). */
void gs_escape_text(char *dst, size_t len, const char *s);

/* The text rule written to f. */
void gs_escape_fputs(FILE *f, const char *s);

/* Whether c is a character the text rule escapes (as one byte: C0 controls and DEL). */
bool gs_escape_is_control(unsigned char c);

/* A markdown table cell: the text rule and '|' as "\|". */
void gs_escape_md(FILE *f, const char *s);

/* Whether a CSV text cell starting like s would be read as a formula (= + - @ tab CR first) and
 * is not a plain number ("-3.5" stays a number). */
bool gs_csv_is_formula(const char *s);

/* A CSV text cell: the text rule, neutralised with a leading ' if it would be a formula, quoted
 * as RFC 4180 asks ("" for a quote inside). */
void gs_escape_csv(FILE *f, const char *s);

/* HTML text or attribute value: & < > " ' as &amp; &lt; &gt; &quot; &#39;; control characters
 * other than tab, newline and CR become &#xFFFD; (HTML forbids them). */
void gs_escape_html(FILE *f, const char *s);

#endif
