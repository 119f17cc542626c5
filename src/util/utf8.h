/* Text that goes into the result document must be valid UTF-8 (JSON strings are; jansson refuses
 * anything else, which left a null device and no SIMULATED marker for a model path that was not
 * UTF-8). These helpers copy text keeping valid UTF-8 as it is and writing every invalid byte as
 * the four characters \xNN, and never cut a character in half when the buffer is short. */
#ifndef GS_UTF8_H
#define GS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Copy src into dst (len bytes, always terminated) as valid UTF-8; invalid bytes become \xNN. */
void gs_utf8_copy(char *dst, size_t len, const char *src);

/* Whether s is valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). */
bool gs_utf8_valid(const char *s);

#endif
