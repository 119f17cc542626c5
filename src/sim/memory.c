/* Simulator: the "memory" section and the chase operation. Placeholder until its issue lands. */
#include "sim/sim.h"

int sim_memory_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    (void)json; (void)m;
    return gs_fail(err, GS_ERR_INPUT, "%s: this build's simulator does not support this section yet", where);
}

void sim_memory_free(gs_sim_model *m)
{
    (void)m;
}

int sim_chase(gs_sim_model *m, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err)
{
    (void)m; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the simulator cannot run 'chase' plans yet");
}
