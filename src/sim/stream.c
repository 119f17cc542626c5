/* Simulator: the "bandwidth" section and the stream operation. Placeholder until its issue lands. */
#include "sim/sim.h"

int sim_bandwidth_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    (void)json; (void)m;
    return gs_fail(err, GS_ERR_INPUT, "%s: this build's simulator does not support this section yet", where);
}

void sim_bandwidth_free(gs_sim_model *m)
{
    (void)m;
}

int sim_stream(gs_sim_model *m, const gs_stream_plan *plan, gs_stream_result *out, gs_error *err)
{
    (void)m; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the simulator cannot run 'stream' plans yet");
}
