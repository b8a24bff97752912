/* Helpers shared by the libpng and libjpeg sessions: messages, notes, growable buffers. */
#include "common.h"
#include <stdlib.h>
#include <string.h>

void techo_free(void *p) { free(p); }

void techo_set_message(char *msg, size_t cap, const char *text) {
    if (msg == NULL || cap == 0) return;
    if (text == NULL) text = "";
    size_t n = strlen(text);
    if (n >= cap) n = cap - 1;
    memcpy(msg, text, n);
    msg[n] = 0;
}

void techo_append_note(char *notes, size_t cap, const char *text) {
    if (notes == NULL || cap == 0 || text == NULL) return;
    size_t used = strnlen(notes, cap);
    if (used + 1 >= cap) return;
    if (used > 0) notes[used++] = '\n';
    size_t n = strlen(text);
    if (used + n >= cap) n = cap - 1 - used;
    memcpy(notes + used, text, n);
    notes[used + n] = 0;
}

int techo_buffer_append(techo_buffer *b, const uint8_t *bytes, size_t n) {
    if (n > SIZE_MAX - b->size) return 0;
    if (b->size + n > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < b->size + n) {
            if (cap > SIZE_MAX / 2) return 0;
            cap *= 2;
        }
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL) return 0;
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
    return 1;
}

int techo_check_limits(uint32_t w, uint32_t h, techo_limits limits) {
    if (w > limits.max_side || h > limits.max_side) return 0;
    return (uint64_t)w * (uint64_t)h <= limits.max_pixels;
}
