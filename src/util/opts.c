/* Table-driven option parsing (see opts.h). Accepts "--name value" and "--name=value". */
#include "util/opts.h"
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/suggest.h"

int gs_parse_bytes(const char *text, uint64_t *out)
{
    if (!text || !*text || *text == '-')
        return -1;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v) || v < 0)
        return -1;
    while (*end == ' ')
        end++;
    double scale = 1;
    char u = (char)toupper((unsigned char)*end);
    if (u == 'K' || u == 'M' || u == 'G' || u == 'T') {
        scale = u == 'K' ? 1024.0 : u == 'M' ? 1048576.0 : u == 'G' ? 1073741824.0 : 1099511627776.0;
        end++;
        if (toupper((unsigned char)*end) == 'I')
            end++;
    }
    if (toupper((unsigned char)*end) == 'B')
        end++;
    if (*end)
        return -1;
    double bytes = v * scale;
    if (bytes > 18446744073709549568.0 || bytes != floor(bytes))
        return -1;
    *out = (uint64_t)bytes;
    return 0;
}

void gs_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    gs_units_bytes((double)bytes, buf, len);
}

static const gs_opt *find_opt(const gs_opt *opts, int count, const char *name, size_t len)
{
    for (int i = 0; i < count; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

static bool in_choices(const char *choices, const char *value)
{
    size_t n = strlen(value);
    for (const char *p = choices; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, value, n) == 0)
            return true;
        if (!bar)
            break;
        p = bar + 1;
    }
    return false;
}

static int set_value(const gs_opt *o, const char *value, gs_error *err)
{
    char *end;
    errno = 0;
    switch (o->kind) {
    case GS_OPT_FLAG:
        *(bool *)o->target = true;
        return 0;
    case GS_OPT_INT: {
        long long v = strtoll(value, &end, 10);
        if (errno || end == value || *end)
            return gs_fail(err, GS_ERR_USAGE, "--%s: '%s' is not an integer", o->name, value);
        if (o->min < o->max && (v < o->min || v > o->max))
            return gs_fail(err, GS_ERR_USAGE, "--%s: %lld is out of range; use %lld to %lld",
                           o->name, v, o->min, o->max);
        *(long long *)o->target = v;
        return 0;
    }
    case GS_OPT_UINT64: {
        if (*value == '-')
            return gs_fail(err, GS_ERR_USAGE, "--%s: '%s' must not be negative", o->name, value);
        unsigned long long v = strtoull(value, &end, 10);
        if (errno || end == value || *end)
            return gs_fail(err, GS_ERR_USAGE, "--%s: '%s' is not a whole number", o->name, value);
        *(uint64_t *)o->target = v;
        return 0;
    }
    case GS_OPT_BYTES:
        if (gs_parse_bytes(value, (uint64_t *)o->target))
            return gs_fail(err, GS_ERR_USAGE,
                           "--%s: '%s' is not a size; use a number with an optional unit "
                           "(B, KB, MB, GB, TB), e.g. 64KB", o->name, value);
        return 0;
    case GS_OPT_DOUBLE: {
        double v = strtod(value, &end);
        if (errno || end == value || *end || !isfinite(v))
            return gs_fail(err, GS_ERR_USAGE, "--%s: '%s' is not a number", o->name, value);
        *(double *)o->target = v;
        return 0;
    }
    case GS_OPT_STRING:
        *(const char **)o->target = value;
        return 0;
    case GS_OPT_CHOICE:
        if (!in_choices(o->choices, value)) {
            gs_suggest sg;
            char hint[96];
            gs_suggest_init(&sg, value);
            gs_suggest_offer_list(&sg, o->choices);
            return gs_fail(err, GS_ERR_USAGE, "--%s: '%s' is not one of %s%s", o->name, value,
                           o->choices, gs_suggest_text(&sg, NULL, hint, sizeof hint));
        }
        *(const char **)o->target = value;
        return 0;
    }
    return gs_fail(err, GS_ERR_USAGE, "--%s: unknown option kind", o->name);
}

int gs_opts_parse(const gs_opt *opts, int count, int argc, char **argv, bool *help_requested,
                  const char **positional, int max_positional, int *npositional, gs_error *err)
{
    int npos = 0;
    if (help_requested)
        *help_requested = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (help_requested)
                *help_requested = true;
            return 0;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (positional && npos < max_positional) {
                positional[npos++] = a;
                continue;
            }
            return gs_fail(err, GS_ERR_USAGE, "unexpected argument '%s'; see --help", a);
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const gs_opt *o = find_opt(opts, count, name, len);
        if (!o) {
            char word[64], hint[96];
            gs_suggest sg;
            snprintf(word, sizeof word, "%.*s", (int)len, name);
            gs_suggest_init(&sg, word);
            for (int k = 0; k < count; k++)
                gs_suggest_offer(&sg, opts[k].name, strlen(opts[k].name));
            return gs_fail(err, GS_ERR_USAGE, "unknown option '--%.*s'%s; see --help", (int)len,
                           name, gs_suggest_text(&sg, "--", hint, sizeof hint));
        }
        const char *value = NULL;
        if (o->kind == GS_OPT_FLAG) {
            if (eq)
                return gs_fail(err, GS_ERR_USAGE, "--%s takes no value", o->name);
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return gs_fail(err, GS_ERR_USAGE, "--%s needs a value (%s)", o->name,
                           o->metavar ? o->metavar : "VALUE");
        }
        int rc = set_value(o, value, err);
        if (rc)
            return rc;
    }
    if (npositional)
        *npositional = npos;
    return 0;
}

void gs_opts_print(FILE *out, const gs_opt *opts, int count)
{
    for (int i = 0; i < count; i++) {
        char left[64];
        const char *mv = opts[i].kind == GS_OPT_FLAG ? "" : opts[i].metavar ? opts[i].metavar : "VALUE";
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, *mv ? " " : "", mv);
        fprintf(out, "  %-26s %s", left, opts[i].help ? opts[i].help : "");
        if (opts[i].kind == GS_OPT_CHOICE && opts[i].choices)
            fprintf(out, " (%s)", opts[i].choices);
        fputc('\n', out);
    }
}

int gs_opts_len(const gs_opt *opts)
{
    int n = 0;
    while (opts && opts[n].name)
        n++;
    return n;
}
