/* Table-driven option parsing for subcommands and probes: each declares its options once as a
 * table of {name, kind, target, help}, and gets parsing, typed values with units ("64KB", "2MB",
 * "1TB") and --help text from it. */
#ifndef GS_OPTS_H
#define GS_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

typedef enum gs_opt_kind {
    GS_OPT_FLAG,     /* bool, no value */
    GS_OPT_INT,      /* long long */
    GS_OPT_UINT64,   /* uint64_t */
    GS_OPT_BYTES,    /* uint64_t, with optional suffix B, KB, MB, GB, TB (powers of 1024) */
    GS_OPT_DOUBLE,   /* double */
    GS_OPT_STRING,   /* const char * (points into argv) */
    GS_OPT_CHOICE,   /* const char *, one of choices ("a|b|c") */
} gs_opt_kind;

typedef struct gs_opt {
    const char *name;        /* long name without dashes: "stride" for --stride */
    gs_opt_kind kind;
    void *target;
    const char *metavar;     /* "BYTES", "N", ... shown in help */
    const char *help;
    const char *choices;     /* for GS_OPT_CHOICE: "l1|l2|tlb|all" */
    long long min, max;      /* for GS_OPT_INT: inclusive range when min < max */
} gs_opt;

/* The row that ends an option table: tables end with it, so no count is written anywhere. */
#define GS_OPT_END {NULL, 0, NULL, NULL, NULL, NULL, 0, 0}

/* The rows of a table ended by GS_OPT_END (0 for NULL). */
int gs_opts_len(const gs_opt *opts);

/* Parse argv[0..argc) against opts (count entries). "--help"/"-h" sets *help_requested and
 * stops. Positional arguments are an error unless positional != NULL, which then receives up to
 * max_positional of them. Errors name the option and what would fix it (GS_ERR_USAGE). */
int gs_opts_parse(const gs_opt *opts, int count, int argc, char **argv, bool *help_requested,
                  const char **positional, int max_positional, int *npositional, gs_error *err);

/* Print "  --name METAVAR   help" lines for the table. */
void gs_opts_print(FILE *out, const gs_opt *opts, int count);

/* "64KB" -> 65536. 0 or -1 (bad text). */
int gs_parse_bytes(const char *text, uint64_t *out);
/* 65536 -> "64 KiB" (gs_units_bytes: binary prefixes, whole sizes without decimals). */
void gs_format_bytes(uint64_t bytes, char *buf, size_t len);

#endif
