/* Property oracles shared by the writer fuzz targets (fuzz_html.c, fuzz_export.c, ...): what the
 * escaping rules of src/util/escape.h promise about each output format, checked on the text a
 * writer produced, and the canary document that makes an injection visible. A broken promise
 * prints what was found and aborts, which libFuzzer reports as a crash with the input saved.
 * Header-only (static functions): every target is one .c file (tests/fuzz/fuzz.cmake). */
#ifndef GS_FUZZ_ORACLE_H
#define GS_FUZZ_ORACLE_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before the first #include: the oracles use memmem and open_memstream"
#endif

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "report/report.h"
#include "util/escape.h"

/* Appended to every string of a document: a newline that would start a line of its own, a
 * terminal escape, a formula start, markup and quotes. Escaped, none of it survives verbatim. */
#define CANARY "\nGSCANARY=1\x1b[2J<gsx \"gsq 'gsa &gsamp |gspipe\xc2\x9b\xe2\x80\xae"

/* Memory stream of one writer's output. */
typedef struct sink {
    char *text;
    size_t len;
    FILE *f;
} sink;

static __attribute__((unused)) void sink_open(sink *s)
{
    s->text = NULL;
    s->len = 0;
    s->f = open_memstream(&s->text, &s->len);
    if (!s->f)
        abort();
}

/* Close the stream; s->text holds the output (free with sink_free). */
static __attribute__((unused)) void sink_close(sink *s)
{
    fclose(s->f);
    s->f = NULL;
}

static __attribute__((unused)) void sink_free(sink *s)
{
    free(s->text);
    s->text = NULL;
}

static __attribute__((unused)) void oracle_fail(const char *what, const char *format, const char *text, size_t at)
{
    size_t from = at > 80 ? at - 80 : 0;
    fprintf(stderr, "\nORACLE (%s): %s at byte %zu:\n---\n", format, what, at);
    fwrite(text + from, 1, strnlen(text + from, 200), stderr);
    fprintf(stderr, "\n---\n");
    abort();
}

/* The canary document: a deep copy of doc with CANARY appended to every string value and to the
 * keys of every "figures", "series" and "params" object (names the writers print), except the
 * few strings the validator pins (schema, tool name, backend, status, compute capability). NULL
 * when the copy is no longer a valid document. */
static json_t *canary_value(const json_t *v, const char *key, bool rename_keys);

static json_t *canary_object(const json_t *o, bool rename_keys)
{
    json_t *copy = json_object();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        bool names = strcmp(k, "figures") == 0 || strcmp(k, "series") == 0 ||
                     strcmp(k, "params") == 0;
        json_t *cv = canary_value(v, k, names);
        if (rename_keys) {
            size_t n = strlen(k) + sizeof CANARY;
            char *nk = malloc(n);
            snprintf(nk, n, "%s%s", k, CANARY);
            json_object_set_new(copy, nk, cv);
            free(nk);
        } else {
            json_object_set_new(copy, k, cv);
        }
    }
    return copy;
}

static json_t *canary_value(const json_t *v, const char *key, bool rename_keys)
{
    static const char *const pinned[] = {"schema", "backend", "status", "compute_capability",
                                         NULL};
    if (json_is_object(v))
        return canary_object(v, rename_keys);
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *e;
        json_array_foreach((json_t *)v, i, e)
            json_array_append_new(a, canary_value(e, key, false));
        return a;
    }
    if (json_is_string(v)) {
        for (size_t i = 0; key && pinned[i]; i++)
            if (strcmp(key, pinned[i]) == 0)
                return json_deep_copy(v);
        size_t n = json_string_length(v) + sizeof CANARY;
        char *s = malloc(n);
        snprintf(s, n, "%s%s", json_string_value(v), CANARY);
        json_t *r = json_string(s);
        free(s);
        return r ? r : json_deep_copy(v);
    }
    return json_deep_copy(v);
}

static json_t *canary_document(const json_t *doc)
{
    json_t *c = canary_value(doc, NULL, false);
    json_t *tool = json_object_get(c, "tool");
    if (json_is_object(tool) && json_is_string(json_object_get(json_object_get(doc, "tool"), "name")))
        json_object_set(tool, "name", json_object_get(json_object_get(doc, "tool"), "name"));
    gs_error err;
    if (gs_report_validate(c, &err) != 0) {
        json_decref(c);
        return NULL;
    }
    return c;
}

/* Text formats (text report, markdown, compare, fleet text): no control character but the
 * newline, no DEL, no C1 control, no bidirectional override; with the canary, none of its
 * pieces verbatim (a document string never starts a line, never opens a markdown cell). */
/* One fuzz input as a document: when it loads, check it, then its canary copy (canary true). */
static __attribute__((unused)) int fuzz_document(const uint8_t *data, size_t size,
                                                 void (*check)(const json_t *doc, bool canary))
{
    json_t *doc = NULL;
    gs_error err;
    if (gs_report_load_buffer((const char *)data, size, "fuzz.json", &doc, &err) != 0)
        return 0;
    check(doc, false);
    json_t *c = canary_document(doc);
    if (c)
        check(c, true);
    json_decref(c);
    json_decref(doc);
    return 0;
}

static __attribute__((unused)) void check_text(const char *format, const char *t, size_t len, bool canary, bool markdown)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            oracle_fail("raw control character", format, t, i);
        if (c == 0xc2 && i + 1 < len && (unsigned char)t[i + 1] >= 0x80 &&
            (unsigned char)t[i + 1] <= 0x9f)
            oracle_fail("raw C1 control", format, t, i);
        if (c == 0xe2 && i + 2 < len && (unsigned char)t[i + 1] == 0x80 &&
            (unsigned char)t[i + 2] >= 0xaa && (unsigned char)t[i + 2] <= 0xae)
            oracle_fail("raw bidirectional override", format, t, i);
    }
    if (!canary)
        return;
    const char *p = memmem(t, len, "\nGSCANARY", 9);
    if (p)
        oracle_fail("a document string started a line", format, t, (size_t)(p - t));
    if (markdown && (p = memmem(t, len, " |gspipe", 8)) && p[-1] != '\\')
        oracle_fail("a document '|' opened a markdown cell", format, t, (size_t)(p - t));
}

/* CSV (RFC 4180), after the writer's header row: every cell empty, a plain finite number, or a
 * quoted text cell that never starts with = + - @ tab or CR unless it is a signed plain number;
 * no raw control characters. */
static __attribute__((unused)) void check_csv(const char *format, const char *t, size_t len)
{
    check_text(format, t, len, false, false);
    const char *header_end = memchr(t, '\n', len);   /* the writer's own header row */
    size_t i = header_end ? (size_t)(header_end - t) + 1 : len;
    while (i < len) {
        size_t start = i;
        if (t[i] == '"') {
            size_t j = i + 1;
            char cell[64] = "";
            size_t n = 0;
            for (; j < len; j++) {
                if (t[j] == '"' && j + 1 < len && t[j + 1] == '"') {
                    if (n + 1 < sizeof cell)
                        cell[n++] = '"';
                    j++;
                } else if (t[j] == '"') {
                    break;
                } else if (t[j] == '\n') {
                    oracle_fail("a raw newline inside a cell", format, t, j);
                } else if (n + 1 < sizeof cell) {
                    cell[n++] = t[j];
                }
            }
            cell[n] = '\0';
            if (j >= len)
                oracle_fail("unterminated quoted cell", format, t, start);
            if (gs_csv_is_formula(cell))
                oracle_fail("a cell starts with a formula character", format, t, start);
            i = j + 1;
        } else {
            size_t j = i;
            while (j < len && t[j] != ',' && t[j] != '\n')
                j++;
            if (j > i) {                              /* unquoted: a plain number */
                char num[64];
                snprintf(num, sizeof num, "%.*s", (int)(j - i < 63 ? j - i : 63), t + i);
                char *end;
                double v = strtod(num, &end);
                if (*end || !isfinite(v) || gs_csv_is_formula(num))
                    oracle_fail("an unquoted cell that is not a plain number", format, t, i);
            }
            if (memchr(t + i, '"', j - i))
                oracle_fail("a quote inside an unquoted cell", format, t, i);
            i = j;
        }
        if (i < len && t[i] != ',' && t[i] != '\n')
            oracle_fail("text after a quoted cell", format, t, i);
        i++;
    }
}

/* Whether an attribute (name, n bytes; value, vn bytes) neither runs nor loads anything. */
static __attribute__((unused)) bool attribute_ok(const char *name, size_t n, const char *value,
                                                 size_t vn)
{
    if (n >= 2 && tolower((unsigned char)name[0]) == 'o' && tolower((unsigned char)name[1]) == 'n')
        return false;                                 /* an event handler */
    static const char *const addresses[] = {"href", "src", "xlink:href", "action", "formaction",
                                            "srcdoc", "data", NULL};
    for (size_t k = 0; addresses[k]; k++)
        if (strlen(addresses[k]) == n && strncasecmp(addresses[k], name, n) == 0)
            return vn > 0 && value[0] == '#';         /* only a place in the page itself */
    return true;
}

/* HTML: no element that runs or loads anything, no event handler, no address that leaves the
 * page; with the canary none of the canary's markup or quotes verbatim (a document string stays
 * in text or an attribute value). */
static __attribute__((unused)) void check_html(const char *t, size_t len, bool canary)
{
    static const char *const forbidden[] = {"script", "iframe", "object", "embed", "frame",
                                            "base", "form", "link", "foreignobject", "animate",
                                            "set", "use", "image", "img", "audio", "video",
                                            "source", "meta", NULL};
    for (size_t i = 0; i + 1 < len; i++) {
        if (t[i] != '<' || !isalpha((unsigned char)t[i + 1]))
            continue;
        size_t j = i + 1;
        char name[24];
        size_t n = 0;
        while (j < len && isalnum((unsigned char)t[j])) {
            if (n + 1 < sizeof name)
                name[n++] = (char)tolower((unsigned char)t[j]);
            j++;
        }
        name[n] = '\0';
        for (size_t k = 0; forbidden[k]; k++)
            if (strcmp(name, forbidden[k]) == 0 &&
                !(strcmp(name, "meta") == 0 && !memmem(t + i, strcspn(t + i, ">"), "http-equiv=\"refresh", 19)))
                oracle_fail("a forbidden element", "html", t, i);
        while (j < len && t[j] != '>') {             /* the attributes */
            while (j < len && (isspace((unsigned char)t[j]) || t[j] == '/'))
                j++;
            size_t a = j;
            while (j < len && !isspace((unsigned char)t[j]) && !strchr("=>/", t[j]))
                j++;
            size_t an = j - a;
            const char *value = "";
            size_t vn = 0;
            if (j < len && t[j] == '=') {
                char q = t[++j];
                if (q == '"' || q == '\'') {
                    const char *end = memchr(t + j + 1, q, len - j - 1);
                    if (!end)
                        oracle_fail("an unterminated attribute value", "html", t, j);
                    value = t + j + 1;
                    vn = (size_t)(end - value);
                    j = (size_t)(end - t) + 1;
                } else {
                    value = t + j;
                    while (j < len && !isspace((unsigned char)t[j]) && t[j] != '>')
                        j++;
                    vn = (size_t)(t + j - value);
                }
            }
            if (an && !attribute_ok(t + a, an, value, vn))
                oracle_fail("an attribute that runs or loads something", "html", t, a);
            if (j == a)
                j++;
        }
    }
    if (!canary)
        return;
    static const char *const pieces[] = {"<gsx", "\"gsq", "'gsa", "&gsamp", "\x1b", NULL};
    for (size_t k = 0; pieces[k]; k++) {
        const char *p = memmem(t, len, pieces[k], strlen(pieces[k]));
        if (p)
            oracle_fail("canary markup verbatim", "html", t, (size_t)(p - t));
    }
}

/* Split data at NUL bytes into at most max parts; returns the number of parts. */
static __attribute__((unused)) size_t split_nul(const char *data, size_t size, const char **part, size_t *len, size_t max)
{
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= size && n < max; i++)
        if (i == size || data[i] == '\0') {
            part[n] = data + start;
            len[n++] = i - start;
            start = i + 1;
        }
    return n;
}

#endif
