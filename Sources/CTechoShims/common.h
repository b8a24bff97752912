/* Internal helpers of CTechoShims (not part of the Swift-visible header). */
#ifndef TECHO_COMMON_H
#define TECHO_COMMON_H
#include "include/techo_shims.h"

void techo_set_message(char *msg, size_t cap, const char *text);
void techo_append_note(char *notes, size_t cap, const char *text);
/* Returns 0 when the buffer cannot grow. */
int techo_buffer_append(techo_buffer *b, const uint8_t *bytes, size_t n);
/* Returns 1 when w x h is within the limits. */
int techo_check_limits(uint32_t w, uint32_t h, techo_limits limits);
#endif
