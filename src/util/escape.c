/* The escaping rules of every output format (escape.h). */
#include "util/escape.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool gs_escape_is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* Length of the valid UTF-8 sequence at s (1-4), its code point in *cp, or 0 if invalid. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (n == 0 || s[0] > 0xf4)
        return 0;
    uint32_t c = s[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

/* Code points a terminal or an editor acts on: C1 controls and the bidirectional controls. */
static bool escaped_code_point(uint32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c;
}

/* The next piece of s under the text rule: either *len bytes of s kept as they are (returns
 * NULL) or an escape written into esc (returned), *len being the bytes of s it stands for. */
static const char *next_piece(const unsigned char *s, size_t *len, char esc[12])
{
    uint32_t cp = 0;
    size_t n = utf8_char(s, &cp);
    if (n == 0) {
        *len = 1;
        snprintf(esc, 12, "\\x%02x", s[0]);
        return esc;
    }
    *len = n;
    if (n == 1 && gs_escape_is_control(s[0])) {
        const char *named = s[0] == '\n' ? "\\n" : s[0] == '\t' ? "\\t" : s[0] == '\r' ? "\\r"
                                                                                          : NULL;
        if (named)
            snprintf(esc, 12, "%s", named);
        else
            snprintf(esc, 12, "\\x%02x", s[0]);
        return esc;
    }
    if (escaped_code_point(cp)) {
        snprintf(esc, 12, "\\u%04x", (unsigned)cp);
        return esc;
    }
    return NULL;
}

void gs_escape_text(char *dst, size_t len, const char *src)
{
    size_t used = 0;
    if (len == 0)
        return;
    for (const unsigned char *s = (const unsigned char *)(src ? src : ""); *s;) {
        char esc[12];
        size_t n;
        const char *e = next_piece(s, &n, esc);
        const char *piece = e ? e : (const char *)s;
        size_t plen = e ? strlen(e) : n;
        if (used + plen >= len)
            break;
        memcpy(dst + used, piece, plen);
        used += plen;
        s += n;
    }
    dst[used] = '\0';
}

/* Bytes gs_escape_text needs for s, terminator included. */
static size_t escaped_size(const char *src)
{
    size_t need = 1;
    for (const unsigned char *s = (const unsigned char *)src; *s;) {
        char esc[12];
        size_t n;
        const char *e = next_piece(s, &n, esc);
        need += e ? strlen(e) : n;
        s += n;
    }
    return need;
}

const char *gs_esc(const char *s)
{
    /* gpusonar writes its outputs from one thread; static buffers stay reachable (no leak). */
    static char *slot[GS_ESC_SLOTS];
    static size_t cap[GS_ESC_SLOTS];
    static unsigned next;
    if (!s)
        s = "";
    size_t need = escaped_size(s);
    unsigned i = next++ % GS_ESC_SLOTS;
    if (cap[i] < need) {
        size_t want = need < 256 ? 256 : need;
        char *p = realloc(slot[i], want);
        if (!p)
            return "(out of memory)";
        slot[i] = p;
        cap[i] = want;
    }
    gs_escape_text(slot[i], cap[i], s);
    return slot[i];
}

void gs_escape_fputs(FILE *f, const char *src)
{
    for (const unsigned char *s = (const unsigned char *)(src ? src : ""); *s;) {
        char esc[12];
        size_t n;
        const char *e = next_piece(s, &n, esc);
        if (e)
            fputs(e, f);
        else
            fwrite(s, 1, n, f);
        s += n;
    }
}

void gs_escape_md(FILE *f, const char *src)
{
    for (const char *s = gs_esc(src); *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

bool gs_csv_is_formula(const char *s)
{
    if (!s || !s[0] || !strchr("=+-@\t\r", s[0]))
        return false;
    if (s[0] != '-' && s[0] != '+')
        return true;
    /* A signed plain number ("-3.5", "+1e-3") is a number to a spreadsheet, not a formula. */
    if (s[strspn(s + 1, "0123456789.eE+-") + 1] != '\0' || !strchr("0123456789.", s[1]))
        return true;
    char *end;
    double v = strtod(s, &end);
    return !(end != s && *end == '\0' && isfinite(v));
}

void gs_escape_csv(FILE *f, const char *src)
{
    const char *s = gs_esc(src);
    fputc('"', f);
    if (gs_csv_is_formula(s))
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void gs_escape_html(FILE *f, const char *src)
{
    for (const unsigned char *s = (const unsigned char *)(src ? src : ""); *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (gs_escape_is_control(*s) && *s != '\n' && *s != '\t' && *s != '\r')
                fputs("&#xFFFD;", f);
            else
                fputc(*s, f);
        }
    }
}
