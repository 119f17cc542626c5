/* For the simulator's tests: load a model from JSON text (written to a temporary .json file,
 * loaded, removed), so each test states its model inline. */
#ifndef GS_SIM_TEST_H
#define GS_SIM_TEST_H

#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include "sim/model.h"

/* Load text as a model with the given seed; returns the loader's status, message in err. */
static inline int sim_test_load(const char *text, uint64_t seed, gs_sim_model **m, gs_error *err)
{
    char path[] = "/tmp/gs_model_XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    gs_error_clear(err);
    int rc = gs_sim_model_load(path, seed, m, err);
    unlink(path);
    return rc;
}

#endif
