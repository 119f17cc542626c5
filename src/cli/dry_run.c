/* The dry run that checks a probe's options before anything is measured: the probe runs against
 * a stand-in backend that answers `info` from the real device and stops the probe at its first
 * measurement (GS_ERR_DRY_RUN). Every option check a probe makes before it measures (ranges,
 * names, sizes against the device's memory) thus fails within a second, as a usage error,
 * without a probe having to know it is being checked. */
#include <string.h>

#include "cli/cli.h"

static int dry_info(gs_backend *b, gs_device_info *out, gs_error *err)
{
    (void)err;
    *out = *(const gs_device_info *)b->impl;
    return 0;
}

#define STOP(op, plan_type, result_type)                                                     \
    static int dry_##op(gs_backend *b, const plan_type *plan, result_type *out, gs_error *err) \
    {                                                                                        \
        (void)b;                                                                             \
        (void)plan;                                                                          \
        (void)out;                                                                           \
        return gs_fail(err, GS_ERR_DRY_RUN, "dry run: the options were accepted");           \
    }
STOP(clock, gs_clock_plan, gs_clock_result)
STOP(chase, gs_chase_plan, gs_chase_result)
STOP(bank, gs_bank_plan, gs_bank_result)
STOP(issue, gs_issue_plan, gs_issue_result)
STOP(stream, gs_stream_plan, gs_stream_result)

static void dry_close(gs_backend *b)
{
    (void)b;
}

static const gs_backend_ops dry_ops = {
    .info = dry_info, .clock = dry_clock, .chase = dry_chase, .bank = dry_bank,
    .issue = dry_issue, .stream = dry_stream, .close = dry_close,
};

int gs_cli_dry_run(const gs_probe_def *def, const gs_probe_ctx *real, gs_error *err)
{
    gs_device_info info = *real->info;
    gs_backend dry = {.ops = &dry_ops, .impl = &info, .seed = real->backend->seed};
    gs_run *scratch = gs_run_new(0, NULL);
    if (!scratch)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    gs_probe_ctx ctx = *real;
    ctx.backend = &dry;
    ctx.run = scratch;
    ctx.quiet = true;
    ctx.csv_dir = NULL;
    int rc = def->run(&ctx, err);
    gs_run_free(scratch);
    if (rc == GS_ERR_USAGE || rc == GS_ERR_INPUT)
        return rc;
    gs_error_clear(err);
    return 0;
}
