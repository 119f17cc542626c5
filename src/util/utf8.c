/* UTF-8 checking and escaping (utf8.h). */
#include "util/utf8.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the byte at s does not start one. */
static size_t sequence_length(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
             : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||   /* overlong, surrogate */
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))     /* overlong, > U+10FFFF */
        return 0;
    return n;
}

void gs_utf8_copy(char *dst, size_t len, const char *src)
{
    size_t used = 0;
    if (len == 0)
        return;
    for (const unsigned char *s = (const unsigned char *)(src ? src : ""); *s;) {
        size_t n = sequence_length(s);
        char escaped[5];
        const char *piece = (const char *)s;
        size_t piece_len = n;
        if (n == 0) {
            snprintf(escaped, sizeof escaped, "\\x%02X", s[0]);
            piece = escaped;
            piece_len = 4;
        }
        if (used + piece_len >= len)
            break;                                   /* whole characters only */
        memcpy(dst + used, piece, piece_len);
        used += piece_len;
        s += n ? n : 1;
    }
    dst[used] = '\0';
}

bool gs_utf8_valid(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = sequence_length(p);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}
