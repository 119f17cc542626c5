/* Opening a backend from a --device spec (src/backend.h): the CUDA backend or the simulator. */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/profile.h"

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

/* ---- GS_PROFILE: every operation timed (util/profile.h) ---------------------------------------
 * One backend is open at a time (a device list opens them one after another), so the wrapped
 * table and the backend's own are kept here. Optional operations pass through untimed. */
static const gs_backend_ops *inner;
static gs_backend_ops wrapped;

static int p_info(gs_backend *b, gs_device_info *o, gs_error *e)
{
    double s = gs_profile_now();
    int rc = inner->info(b, o, e);
    gs_profile_log("info", s, "");
    return rc;
}

/* What a profile line says of a plan beyond its operation's name (most say nothing). */
#define NO_DETAIL(plan_t, result_t)                                                            \
    static void detail_##plan_t(const plan_t *p, const result_t *o, char *d, size_t n)       \
    {                                                                                        \
        (void)p, (void)o, (void)n;                                                           \
        d[0] = '\0';                                                                         \
    }
NO_DETAIL(gs_clock_plan, gs_clock_result)
NO_DETAIL(gs_bank_plan, gs_bank_result)
NO_DETAIL(gs_issue_plan, gs_issue_result)

static void detail_gs_chase_plan(const gs_chase_plan *p, const gs_chase_result *o, char *d,
                                 size_t n)
{
    gs_chase_split split;
    (void)o;
    snprintf(d, n, "space=%s path=%s footprint=%llu chain=%zu warmup=%u record=%zu "
             "timed=%llu walkers=%u lanes=%u warm_accesses=%llu physical=%llu split=%d "
             "window=%u base_align=%llu",
             gs_space_name(p->space), gs_path_name(p->path),
             (unsigned long long)p->footprint_bytes, p->chain_len, p->warmup_passes, p->record_n,
             (unsigned long long)p->timed_accesses, p->walkers, p->lanes,
             (unsigned long long)(p->warmup_accesses ? p->warmup_accesses
                                                     : (uint64_t)p->warmup_passes * p->chain_len),
             (unsigned long long)p->physical_bytes, gs_chase_split_of(p, &split),
             gs_chase_window_of(p), (unsigned long long)p->base_align_bytes);
}

static void detail_gs_stream_plan(const gs_stream_plan *p, const gs_stream_result *o, char *d,
                                  size_t n)
{
    (void)o;
    snprintf(d, n, "kind=%d bytes=%llu repeats=%u traffic=%llu", (int)p->kind,
             (unsigned long long)p->bytes, p->repeats, (unsigned long long)p->traffic_bytes);
}

static void detail_gs_evict_plan(const gs_evict_plan *p, const gs_evict_result *o, char *d,
                                 size_t n)
{
    snprintf(d, n, "targets=%zu pool=%zu warm=%u passes=%u repeats=%u footprint=%llu "
             "sm_moves=%u", p->n_targets, p->n_pool, p->warm_passes, p->pool_passes, p->repeats,
             (unsigned long long)p->footprint_bytes, o->sm_moves);
}

/* One timed shim per operation: the inner operation, then a profile line with its detail. */
#define PROFILED(op, plan_t, result_t)                                                         \
    static int p_##op(gs_backend *b, const plan_t *p, result_t *o, gs_error *e)             \
    {                                                                                        \
        char d[320];                                                                         \
        double s = gs_profile_now();                                                         \
        int rc = inner->op(b, p, o, e);                                                      \
        detail_##plan_t(p, o, d, sizeof d);                                                  \
        gs_profile_log(#op, s, d);                                                           \
        return rc;                                                                           \
    }
PROFILED(clock, gs_clock_plan, gs_clock_result)
PROFILED(chase, gs_chase_plan, gs_chase_result)
PROFILED(bank, gs_bank_plan, gs_bank_result)
PROFILED(issue, gs_issue_plan, gs_issue_result)
PROFILED(stream, gs_stream_plan, gs_stream_result)
PROFILED(evict, gs_evict_plan, gs_evict_result)

static void p_close(gs_backend *b)
{
    const gs_backend_ops *own = inner;
    inner = NULL;
    if (own && own->close)
        own->close(b);
}

static void profile_wrap(gs_backend *b)
{
    if (!gs_profile_enabled() || !b || !b->ops)
        return;
    gs_profile_now();
    inner = b->ops;
    wrapped = *inner;               /* optional operations pass through untimed */
    wrapped.info = inner->info ? p_info : NULL;
    wrapped.clock = inner->clock ? p_clock : NULL;
    wrapped.chase = inner->chase ? p_chase : NULL;
    wrapped.bank = inner->bank ? p_bank : NULL;
    wrapped.issue = inner->issue ? p_issue : NULL;
    wrapped.stream = inner->stream ? p_stream : NULL;
    wrapped.evict = inner->evict ? p_evict : NULL;  /* thousands per L2 search: worth a line */
    wrapped.close = p_close;
    b->ops = &wrapped;
}

static int open_spec(const char *spec, uint64_t seed, gs_backend **out, bool *fell_back,
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

int gs_backend_open(const char *spec, uint64_t seed, gs_backend **out, bool *fell_back,
                    gs_error *err)
{
    int rc = open_spec(spec, seed, out, fell_back, err);
    if (rc == 0)
        profile_wrap(*out);           /* GS_PROFILE: time every operation */
    return rc;
}

void gs_backend_close(gs_backend *b)
{
    if (b && b->ops && b->ops->close)
        b->ops->close(b);
}
