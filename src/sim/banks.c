/* Simulator: the "banks" section and the bank operation. Placeholder until its issue lands. */
#include "sim/sim.h"

int sim_banks_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    (void)json; (void)m;
    return gs_fail(err, GS_ERR_INPUT, "%s: this build's simulator does not support this section yet", where);
}

void sim_banks_free(gs_sim_model *m)
{
    (void)m;
}

int sim_bank(gs_sim_model *m, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err)
{
    (void)m; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the simulator cannot run 'bank' plans yet");
}
