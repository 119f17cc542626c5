/* Libraries loaded at run time (dlopen), for optional capabilities that must not stop gpusonar
 * from starting where they are absent (CUPTI's counters): the first of a list of file names
 * found in a list of folders, then on the loader's path, and every symbol a capability needs
 * resolved at once, so that a library too old to have one turns the capability off with the
 * missing name instead of failing later. Plain C; nothing here runs a shell. */
#ifndef GS_DYNLIB_H
#define GS_DYNLIB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Open the first of names[] (NULL-terminated) found in dirs[] (NULL-terminated, may be NULL),
 * each folder in turn, then the first the loader finds by its name alone. 0 with *handle and
 * the path it loaded in path[0..path_len); -1 with why (every name tried) in reason. */
int gs_dynlib_open(const char *const *names, const char *const *dirs, void **handle, char *path,
                   size_t path_len, char *reason, size_t reason_len);

/* Resolve symbols[i] (NULL-terminated) into fns[i] for every i: 0, or -1 with the first
 * missing name in reason (fns then partly filled; none is to be called). */
int gs_dynlib_resolve(void *handle, const char *const *symbols, void **fns, char *reason,
                      size_t reason_len);

void gs_dynlib_close(void *handle);

#ifdef __cplusplus
}
#endif

#endif
