/* Opening a backend from a --device spec (src/backend.h): the CUDA backend or the simulator. */
#include "backend.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int open_cuda_spec(const char *num, gs_backend **out, gs_error *err)
{
    if (strncasecmp(num, "GPU-", 4) == 0) {
        int ordinal = -1, rc = gs_cuda_find_uuid(num, &ordinal, err);
        return rc ? rc : gs_cuda_open(ordinal, out, err);
    }
    char *end;
    long ordinal = strtol(num, &end, 10);
    if (*num == '\0' || *end || ordinal < 0 || ordinal > 1023)
        return gs_fail(err, GS_ERR_USAGE, "--device cuda:%s: name a device by index (cuda:0) or "
                       "UUID (cuda:GPU-...); 'gpusonar devices' lists them", num);
    return gs_cuda_open((int)ordinal, out, err);
}

int gs_backend_open(const char *spec, uint64_t seed, gs_backend **out, bool *fell_back,
                    gs_error *err)
{
    *out = NULL;
    if (fell_back)
        *fell_back = false;
    if (!spec) {
        int count = 0;
        gs_error probe_err;
        gs_error_clear(&probe_err);
        if (gs_cuda_device_count(&count, &probe_err) == 0 && count > 0)
            return gs_cuda_open(0, out, err);
        if (fell_back)
            *fell_back = true;
        return gs_sim_open("hopper", seed, out, err);
    }
    if (strcmp(spec, "sim") == 0)
        return gs_sim_open("hopper", seed, out, err);
    if (strncmp(spec, "sim:", 4) == 0) {
        if (spec[4] == '\0')
            return gs_fail(err, GS_ERR_USAGE, "--device sim: needs a model name or file after "
                           "the colon; see 'gpusonar models'");
        return gs_sim_open(spec + 4, seed, out, err);
    }
    if (strcmp(spec, "cuda") == 0)
        return gs_cuda_open(0, out, err);
    if (strncmp(spec, "cuda:", 5) == 0)
        return open_cuda_spec(spec + 5, out, err);
    return gs_fail(err, GS_ERR_USAGE, "--device '%s' is not a device; use cuda:N, sim, sim:NAME "
                   "or sim:FILE.json", spec);
}

void gs_backend_close(gs_backend *b)
{
    if (b && b->ops && b->ops->close)
        b->ops->close(b);
}
