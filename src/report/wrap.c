/* Wrapping and shortening of long text for the text report (wrap.h). */
#include "report/wrap.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define GS_WRAP_MAX 100

int gs_wrap_width(FILE *out)
{
    struct winsize ws;
    int fd = fileno(out);
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col < GS_WRAP_MAX ? ws.ws_col : GS_WRAP_MAX;
    return GS_WRAP_MAX;
}

size_t gs_wrap_chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static size_t chars_n(const char *s, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

void gs_wrap_print(FILE *out, const char *text, int column, int indent, int width)
{
    size_t col = column > 0 ? (size_t)column : 0, room = width > 0 ? (size_t)width : GS_WRAP_MAX;
    bool first_on_line = true;
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t bytes = strcspn(p, " ");
        size_t w = chars_n(p, bytes);
        if (!first_on_line && col + 1 + w > room) {
            fprintf(out, "\n%*s", indent, "");
            col = (size_t)indent;
            first_on_line = true;
        }
        if (!first_on_line) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, bytes, out);
        col += w;
        first_on_line = false;
        p += bytes;
    }
    fputc('\n', out);
}

bool gs_wrap_first_clause(const char *text, char *buf, size_t len)
{
    const char *s = text ? text : "";
    size_t cut = strlen(s), depth = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && depth > 0)
            depth--;
        else if (depth == 0 && (s[i] == '.' || s[i] == ';' || s[i] == ':') && s[i + 1] == ' ' &&
                 chars_n(s, i) >= 16) {
            cut = i;
            break;
        }
    }
    bool shortened = cut < strlen(s);
    if (len == 0)
        return shortened;
    if (cut >= len) {             /* too long for buf: end at the last blank that fits */
        shortened = true;
        cut = len - 1;
        while (cut > 0 && s[cut] != ' ')
            cut--;
        if (cut == 0)
            cut = len - 1;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
    }
    memcpy(buf, s, cut);
    buf[cut] = '\0';
    return shortened;
}

void gs_wrap_cell(const char *text, size_t width, char *buf, size_t len)
{
    const char *s = text ? text : "";
    if (len < 4 || width < 2) {   /* no room for a word and the ellipsis */
        buf[0] = '\0';
        return;
    }
    if (gs_wrap_chars(s) <= width && strlen(s) < len) {
        memcpy(buf, s, strlen(s) + 1);
        return;
    }
    /* Keep whole words within width - 1 characters (room for the ellipsis) and the buffer. */
    size_t keep = 0, i = 0, chars = 0;
    while (s[i]) {
        if (s[i] == ' ' && i > 0)
            keep = i;
        chars += ((unsigned char)s[i] & 0xC0) != 0x80;
        if (chars > width - 1 || i + 4 >= len)
            break;
        i++;
    }
    if (keep == 0) {              /* one word longer than the cell: cut it, on a character */
        keep = i;
        while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
            keep--;
    }
    while (keep > 0 && (s[keep - 1] == ' ' || s[keep - 1] == ','))
        keep--;
    memcpy(buf, s, keep);
    memcpy(buf + keep, "…", sizeof "…");
}
