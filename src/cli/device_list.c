/* --device lists: "cuda:all" (every CUDA device of the node) and "cuda:0,2" or "sim:a,sim:b"
 * (several devices) expand into one device spec each, measured in turn by the run loop
 * (run_probes.c) with one result document per GPU (--out-dir). Devices are measured one after
 * another by default: probes load the host, PCIe and NVLink that GPUs of a node share. With
 * --concurrent (concurrent.c) they run at once and only the probes that load those run alone. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

bool gs_cli_is_device_list(const char *spec)
{
    return spec && (strchr(spec, ',') || strcmp(spec, "cuda:all") == 0);
}

static int add_spec(char (*list)[GS_DEVICE_SPEC_LEN], int max, int *n, const char *spec,
                    const char *whole, gs_error *err)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], spec) == 0)
            return gs_fail(err, GS_ERR_USAGE, "--device %s names %s twice", whole, spec);
    if (*n == max)
        return gs_fail(err, GS_ERR_USAGE, "--device %s: more than %d devices", whole, max);
    if (strlen(spec) >= GS_DEVICE_SPEC_LEN)
        return gs_fail(err, GS_ERR_USAGE, "--device %s: '%s' is too long", whole, spec);
    snprintf(list[(*n)++], GS_DEVICE_SPEC_LEN, "%s", spec);
    return 0;
}

int gs_cli_expand_devices(const char *spec, char (*list)[GS_DEVICE_SPEC_LEN], int max, int *n,
                          gs_error *err)
{
    *n = 0;
    if (strcmp(spec, "cuda:all") == 0) {
        int count = 0;
        int rc = gs_cuda_device_count(&count, err);
        if (rc)
            return rc;
        if (count == 0)
            return gs_fail(err, GS_ERR_NO_DEVICE, "--device cuda:all: no CUDA GPU found on this "
                           "machine; 'gpusonar devices' lists what is usable");
        for (int i = 0; i < count && !rc; i++) {
            char one[32];
            snprintf(one, sizeof one, "cuda:%d", i);
            rc = add_spec(list, max, n, one, spec, err);
        }
        return rc;
    }
    /* An item without "backend:" takes the first item's backend: cuda:0,2 is cuda:0 and cuda:2. */
    const char *colon = strchr(spec, ':');
    size_t prefix = colon ? (size_t)(colon - spec) + 1 : 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char one[GS_DEVICE_SPEC_LEN + 32];
        if (strchr(tok, ':') || strcmp(tok, "sim") == 0 || strcmp(tok, "cuda") == 0 || !prefix)
            snprintf(one, sizeof one, "%s", tok);
        else
            snprintf(one, sizeof one, "%.*s%s", (int)prefix, spec, tok);
        int rc = add_spec(list, max, n, one, spec, err);
        if (rc)
            return rc;
    }
    if (*n == 0)
        return gs_fail(err, GS_ERR_USAGE, "--device %s names no device", spec);
    return 0;
}
