/* `gpusonar devices`: what --device accepts: every CUDA device of this machine (index, name,
 * compute capability, SMs, memory, clocks, UUID, PCI bus id, MIG mode) and every built-in
 * simulator model. Read only. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"

static void print_device(int ordinal)
{
    gs_error err;
    gs_backend *b = NULL;
    gs_device_info d;
    if (gs_cuda_open(ordinal, &b, &err) || b->ops->info(b, &d, &err)) {
        printf("cuda:%-3d  not usable: %s\n", ordinal, err.msg);
        gs_backend_close(b);
        return;
    }
    gs_device_state s = {0};
    bool state = b->ops->state && b->ops->state(b, &s, &err) == 0 && s.available;
    char mem[32];
    gs_format_bytes(d.global_mem_bytes, mem, sizeof mem);
    printf("cuda:%-3d  %s\n", ordinal, d.name);
    printf("          compute capability %d.%d, %d SMs, %s, SM clock %.0f MHz, memory clock %.0f MHz\n",
           d.cc_major, d.cc_minor, d.sm_count, mem, d.sm_clock_khz / 1000, d.mem_clock_khz / 1000);
    printf("          %s  PCI %s  MIG %s\n", d.uuid, d.pci_bus_id,
           !state || s.mig_mode < 0 ? "unknown" : s.mig_mode ? "enabled" : "disabled");
    gs_backend_close(b);
}

int gs_cmd_devices(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gs_error err;
    int count = 0;
    printf("CUDA devices (--device cuda:N or cuda:UUID):\n");
    if (gs_cuda_device_count(&count, &err))
        printf("  none usable: %s\n", err.msg);
    else if (count == 0)
        printf("  none found\n");
    for (int i = 0; i < count; i++)
        print_device(i);
    printf("\nSimulated devices (--device sim:NAME, or sim:FILE.json for your own model):\n");
    return gs_cli_list_models("  ");
}
