/* Numbers as people read them, in one place for every printer (text, markdown, HTML, info):
 * sizes in bytes with binary prefixes (48 MiB, 79.65 GiB), clocks in MHz, rates and counts with
 * the decimal unit the document gives (GB/s), and an interval always in its value's unit
 * ("48.00 MiB ± 0.45"), its value given to the interval's precision. */
#ifndef GS_UNITS_H
#define GS_UNITS_H

#include <stddef.h>

/* How a value of a document unit is shown: divide by divisor, print with unit. */
typedef struct gs_unit_scale {
    double divisor;
    char unit[32];
} gs_unit_scale;

/* The scale for value in unit: "B" -> B, KiB, MiB, GiB, TiB (the largest the value reaches);
 * "kHz" -> MHz; any other unit as it is (divisor 1). */
void gs_units_scale(double value, const char *unit, gs_unit_scale *scale);

/* A bare number: a whole number, or one of 1000 and more, without decimals, else four
 * significant digits without trailing zeros; no exponent between 0.001 and 10^15 ("0.25",
 * "221.9", "2995", "128" for 127.99999, "5.2e-06"). */
void gs_units_number(double value, char *buf, size_t len);

/* A 95 % half-width alone, to two significant digits, no exponent from 10^-4 on ("0.45",
 * "140", "0.10"). */
void gs_units_halfwidth(double ci95, char *buf, size_t len);

/* A value with its unit, scaled ("48 MiB", "1980 MHz", "206.7 KiB", "33.2 cycles"; no unit:
 * the number alone). */
void gs_units_value(double value, const char *unit, char *buf, size_t len);

/* A value and its 95 % half-width in the value's unit, the value given to the half-width's two
 * significant digits ("48.00 MiB ± 0.45", "212 cycles ± 44"); ci95 <= 0 or not finite: the value
 * alone. A half-width below 10^-4 of the scale's unit is given with its exponent beside the
 * value as gs_units_value prints it ("4 cycles ± 5.6e-05"). */
void gs_units_interval(double value, double ci95, const char *unit, char *buf, size_t len);

/* A size in bytes with binary prefixes ("48 MiB", "79.65 GiB", "512 B"). */
void gs_units_bytes(double bytes, char *buf, size_t len);

#endif
