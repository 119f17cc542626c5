/* Libraries loaded at run time (util/dynlib.h): dlopen by full path in each folder, then by
 * name; dlsym for every symbol before any is used. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "util/dynlib.h"

static void *try_open(const char *path)
{
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

int gs_dynlib_open(const char *const *names, const char *const *dirs, void **handle, char *path,
                   size_t path_len, char *reason, size_t reason_len)
{
    char full[512];
    *handle = NULL;
    for (size_t d = 0; dirs && dirs[d]; d++)
        for (size_t n = 0; names[n]; n++) {
            snprintf(full, sizeof full, "%s/%s", dirs[d], names[n]);
            if ((*handle = try_open(full)) != NULL) {
                snprintf(path, path_len, "%s", full);
                return 0;
            }
        }
    for (size_t n = 0; names[n]; n++)
        if ((*handle = try_open(names[n])) != NULL) {
            snprintf(path, path_len, "%s", names[n]);
            return 0;
        }
    size_t used = (size_t)snprintf(reason, reason_len, "not found (");
    for (size_t n = 0; names[n] && used < reason_len; n++)
        used += (size_t)snprintf(reason + used, reason_len - used, "%s%s", n ? ", " : "",
                                 names[n]);
    if (used < reason_len)
        snprintf(reason + used, reason_len - used, "%s)",
                 dirs && dirs[0] ? " in the CUDA library folders or on the loader's path"
                                 : " on the loader's path");
    return -1;
}

int gs_dynlib_resolve(void *handle, const char *const *symbols, void **fns, char *reason,
                      size_t reason_len)
{
    for (size_t i = 0; symbols[i]; i++) {
        fns[i] = dlsym(handle, symbols[i]);
        if (!fns[i]) {
            snprintf(reason, reason_len, "too old: it lacks %s", symbols[i]);
            return -1;
        }
    }
    return 0;
}

void gs_dynlib_close(void *handle)
{
    if (handle)
        (void)dlclose(handle);
}
