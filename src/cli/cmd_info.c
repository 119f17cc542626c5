/* `gpusonar info`: the device's properties as the driver (or the model) reports them, and the SM
 * clock measured now; sizes with binary prefixes (util/units.h). */
#include <stdio.h>

#include "cli/cli.h"
#include "result/result.h"
#include "util/escape.h"

static void print_info(const gs_device_info *d, double measured_khz)
{
    char l2[32], smem[32], mem[32], cmem[32], block[32], optin[32];
    gs_format_bytes(d->l2_bytes, l2, sizeof l2);
    gs_format_bytes(d->smem_per_sm_bytes, smem, sizeof smem);
    gs_format_bytes(d->global_mem_bytes, mem, sizeof mem);
    gs_format_bytes(d->const_mem_bytes, cmem, sizeof cmem);
    gs_format_bytes(d->smem_per_block_bytes, block, sizeof block);
    gs_format_bytes(d->smem_per_block_optin_bytes, optin, sizeof optin);
    printf("device              %s%s\n", d->name, d->simulated ? "  [SIMULATED model]" : "");
    printf("backend             %s%s%s\n", d->backend, d->simulated ? ":" : "", d->model);
    printf("compute capability  %d.%d\n", d->cc_major, d->cc_minor);
    printf("SMs                 %d\n", d->sm_count);
    printf("SM clock (driver)   %.0f MHz peak%s", d->sm_clock_khz / 1000,
           d->sm_clock_now_khz > 0 ? "" : "\n");
    if (d->sm_clock_now_khz > 0)
        printf(", %.0f MHz now\n", d->sm_clock_now_khz / 1000);
    if (measured_khz > 0)
        printf("SM clock (measured) %.0f MHz\n", measured_khz / 1000);
    else
        printf("SM clock (measured) not determined: the clock plan failed on this device\n");
    if (d->mem_bus_bits > 0)
        printf("global memory       %s (%d-bit bus)\n", mem, d->mem_bus_bits);
    else
        printf("global memory       %s\n", mem);
    /* The driver's figure is the whole L2; the report's (cache:l2 size_bytes) is measured, what
     * loads can hold, and may be smaller. */
    printf("L2 cache (driver)   %s; the report's L2 size is measured: what loads can hold\n", l2);
    printf("shared memory / SM  %s (%s per block, %s opt-in)\n", smem, block, optin);
    printf("constant memory     %s\n", cmem);
    printf("threads / SM        %d (%d blocks, %d registers)\n", d->max_threads_per_sm,
           d->max_blocks_per_sm, d->regs_per_sm);
    printf("L2 counters         %s: %s\n", d->counters ? "on" : "not available",
           gs_esc(d->counters_detail));
    if (!d->simulated)
        printf("driver / runtime    %d.%d / %d.%d%s\n", d->driver_version / 1000,
               d->driver_version % 1000 / 10, d->runtime_version / 1000,
               d->runtime_version % 1000 / 10, d->vmm_supported ? "  (VMM supported)" : "");
}

int gs_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gs_error err;
    if (gs_cli_check_outputs(&err))
        return gs_cli_fail(&err);
    gs_backend *b = NULL;
    gs_device_info info;
    if (gs_cli_open_device(&b, &info, &err))
        return gs_cli_fail(&err);
    double khz = gs_probe_clock_khz(b);
    print_info(&info, khz);
    int rc = 0;
    if (gs_args.json) {
        gs_run *run = gs_run_new(gs_args.full_argc, gs_args.full_argv);
        if (run) {
            gs_run_set_device(run, &info);
            gs_run_finish(run, true, NULL);
            rc = gs_run_write_json(run, gs_args.json, &err);
            gs_run_free(run);
        }
    }
    gs_backend_close(b);
    if (rc) {
        gs_cli_fail(&err);
        return GS_EXIT_FAILED;
    }
    return GS_EXIT_OK;
}
