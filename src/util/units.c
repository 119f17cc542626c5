/* Numbers as people read them (units.h). Binary prefixes for sizes because caches, pages and
 * memories are powers of two; decimal units for rates because GB/s is how links and memories
 * are specified; the interval in the value's unit so the two can be read together. */
#include "util/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gs_units_scale(double value, const char *unit, gs_unit_scale *s)
{
    static const char *const binary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    s->divisor = 1;
    snprintf(s->unit, sizeof s->unit, "%s", unit ? unit : "");
    if (!unit || !isfinite(value))
        return;
    if (strcmp(unit, "B") == 0) {
        int u = 0;
        double v = fabs(value);
        while (v >= 1024 && u < 5) {
            v /= 1024;
            s->divisor *= 1024;
            u++;
        }
        snprintf(s->unit, sizeof s->unit, "%s", binary[u]);
    } else if (strcmp(unit, "kHz") == 0) {
        s->divisor = 1000;
        snprintf(s->unit, sizeof s->unit, "MHz");
    }
}

void gs_units_number(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (!isfinite(v))
        snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    else if (a >= 1e15)
        snprintf(buf, len, "%.4g", v);
    else if (v == floor(v) || a >= 1000)
        snprintf(buf, len, "%.0f", v);
    else if (a >= 0.001)
        snprintf(buf, len, "%.4g", v);
    else
        snprintf(buf, len, "%.2g", v);
}

/* Decimals that show x to two significant digits, from x as it rounds ("%.1e"): 0.0999 -> 2. */
static int two_digit_decimals(double x)
{
    char e[32];
    snprintf(e, sizeof e, "%.1e", x);
    const char *p = strchr(e, 'e');
    int exponent = p ? atoi(p + 1) : 0;
    return exponent >= 1 ? 0 : 1 - exponent;
}

void gs_units_halfwidth(double ci, char *buf, size_t len)
{
    if (!isfinite(ci) || ci >= 1e15 || (ci > 0 && ci < 1e-4))
        snprintf(buf, len, "%.2g", ci);
    else
        snprintf(buf, len, "%.*f", two_digit_decimals(ci), ci);
}

static void join(char *buf, size_t len, const char *number, const char *unit)
{
    snprintf(buf, len, "%s%s%s", number, *unit ? " " : "", unit);
}

void gs_units_value(double value, const char *unit, char *buf, size_t len)
{
    gs_unit_scale s;
    char num[64];
    gs_units_scale(value, unit, &s);
    gs_units_number(value / s.divisor, num, sizeof num);
    join(buf, len, num, s.unit);
}

void gs_units_interval(double value, double ci95, const char *unit, char *buf, size_t len)
{
    if (!(ci95 > 0) || !isfinite(ci95) || !isfinite(value)) {
        gs_units_value(value, unit, buf, len);
        return;
    }
    gs_unit_scale s;
    gs_units_scale(value, unit, &s);
    double v = value / s.divisor, ci = ci95 / s.divisor;
    char num[64];
    if (ci < 1e-4) {
        gs_units_number(v, num, sizeof num);
        snprintf(buf, len, "%s%s%s ± %.2g", num, *s.unit ? " " : "", s.unit, ci);
        return;
    }
    /* Two significant digits of the half-width fix the decimals of both numbers. */
    int decimals = two_digit_decimals(ci);
    char half[64];
    snprintf(num, sizeof num, "%.*f", decimals, v);
    gs_units_halfwidth(ci, half, sizeof half);
    snprintf(buf, len, "%s%s%s ± %s", num, *s.unit ? " " : "", s.unit, half);
}

void gs_units_bytes(double bytes, char *buf, size_t len)
{
    gs_units_value(bytes, "B", buf, len);
}
