/* What every cmocka test file includes: cmocka's prerequisites in the order it needs them, and
 * assert_double_equal, which cmocka 1.1 (Debian 12) lacks (its assert_float_equal compares
 * doubles with an epsilon). */
#ifndef GS_TEST_H
#define GS_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#ifndef assert_double_equal
#define assert_double_equal(a, b, epsilon) assert_float_equal((a), (b), (epsilon))
#endif

#endif
