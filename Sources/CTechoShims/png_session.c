/* Whole libpng sessions (read and write) from and to memory, with our own error handlers so
 * libpng's longjmp lands in this file and never crosses Swift. Uses libpng's full API, not the
 * simplified png_image one, so the transforms are exactly the ones named below. */
#include "common.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jmp;
    int code;
    char *msg;
    size_t msg_cap;
    char *notes;
    size_t notes_cap;
} png_ctx;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
} mem_reader;

static void on_png_error(png_structp png, png_const_charp text) {
    png_ctx *ctx = png_get_error_ptr(png);
    techo_set_message(ctx->msg, ctx->msg_cap, text);
    longjmp(ctx->jmp, 1);
}

static void on_png_warning(png_structp png, png_const_charp text) {
    png_ctx *ctx = png_get_error_ptr(png);
    techo_append_note(ctx->notes, ctx->notes_cap, text);
}

static void read_from_memory(png_structp png, png_bytep out, size_t n) {
    mem_reader *r = png_get_io_ptr(png);
    if (n > r->size - r->pos) png_error(png, "file is truncated");
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
}

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Checks the signature and the size IHDR claims, before libpng allocates anything. */
static int precheck(const uint8_t *data, size_t size, techo_limits limits, techo_png_info *info,
                    char *msg, size_t msg_cap) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (size < 8 || memcmp(data, sig, 8) != 0) {
        techo_set_message(msg, msg_cap, "not a PNG signature");
        return TECHO_ERR_SIGNATURE;
    }
    if (size < 8 + 8 + 13 + 4) {
        techo_set_message(msg, msg_cap, "file is truncated before the end of IHDR");
        return TECHO_ERR_CORRUPT;
    }
    if (be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) {
        techo_set_message(msg, msg_cap, "first chunk is not a 13-byte IHDR");
        return TECHO_ERR_CORRUPT;
    }
    uint32_t w = be32(data + 16), h = be32(data + 20);
    if (info) {
        memset(info, 0, sizeof *info);
        info->width = w;
        info->height = h;
        info->bit_depth = data[24];
        info->color_type = data[25];
        info->interlaced = data[28] == 1;
    }
    if (w != 0 && h != 0 && !techo_check_limits(w, h, limits)) {
        techo_set_message(msg, msg_cap, "image size exceeds the limits");
        return TECHO_ERR_LIMITS;
    }
    /* Every chunk must fit in the file: libpng allocates an ancillary chunk's declared length
     * before reading it (a 57-byte file claiming a 1 GB tEXt chunk made it allocate 1 GB), so a
     * length past the end of the data is refused here, before libpng sees it. */
    size_t pos = 8;
    while (pos + 8 <= size) {
        uint32_t len = be32(data + pos);
        if (len > 0x7fffffffu || (size_t)len > size - pos - 8 || size - pos - 8 - (size_t)len < 4) {
            char text[96];
            snprintf(text, sizeof text, "file is truncated: chunk %.4s claims %u bytes", (const char *)(data + pos + 4), len);
            for (char *c = text; *c; c++) if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) *c = '?';
            techo_set_message(msg, msg_cap, text);
            return TECHO_ERR_CORRUPT;
        }
        if (memcmp(data + pos + 4, "IEND", 4) == 0) break;
        pos += 12 + (size_t)len;
    }
    return TECHO_OK;
}

/* probe: with out == NULL, read every row into one reused row buffer and then the chunks up
 * to IEND, so the whole stream is inflated, unfiltered and CRC-checked with memory of one row. */
static int png_read_session(const uint8_t *data, size_t size, techo_limits limits,
                            techo_png_info *info_out, uint8_t *out, size_t out_size, int probe,
                            char *notes, size_t notes_cap, char *msg, size_t msg_cap) {
    techo_set_message(msg, msg_cap, "");
    int pre = precheck(data, size, limits, info_out, msg, msg_cap);
    if (pre != TECHO_OK) return pre;

    png_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.code = TECHO_ERR_CORRUPT;
    ctx.msg = msg;
    ctx.msg_cap = msg_cap;
    ctx.notes = notes;
    ctx.notes_cap = notes_cap;
    mem_reader reader = {data, size, 0};

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error, on_png_warning);
    if (png == NULL) {
        techo_set_message(msg, msg_cap, "out of memory");
        return TECHO_ERR_NOMEM;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        techo_set_message(msg, msg_cap, "out of memory");
        return TECHO_ERR_NOMEM;
    }
    png_bytepp volatile rows = NULL;
    png_bytep volatile row = NULL;
    if (setjmp(ctx.jmp)) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        free(row);
        return ctx.code;
    }
    png_set_read_fn(png, &reader, read_from_memory);
    /* Our own check above already ran; these keep libpng's internal limits consistent. */
    uint32_t side = limits.max_side > 0x7fffffffu ? 0x7fffffffu : limits.max_side;
    png_set_user_limits(png, side, side);
    png_set_chunk_malloc_max(png, 8u * 1024 * 1024);
    png_read_info(png, info);

    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), ctype = png_get_color_type(png, info);
    if (info_out) {
        info_out->width = w;
        info_out->height = h;
        info_out->bit_depth = depth;
        info_out->color_type = ctype;
        info_out->interlaced = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7;
    }
    if (!techo_check_limits(w, h, limits)) {
        ctx.code = TECHO_ERR_LIMITS;
        png_error(png, "image size exceeds the limits");
    }
    if (out == NULL && probe) {
        int passes = png_set_interlace_handling(png);
        png_read_update_info(png, info);
        row = malloc(png_get_rowbytes(png, info));
        if (row == NULL) {
            ctx.code = TECHO_ERR_NOMEM;
            png_error(png, "out of memory");
        }
        for (int pass = 0; pass < passes; pass++)
            for (uint32_t y = 0; y < h; y++) png_read_row(png, row, NULL);
        png_read_end(png, NULL);
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        return TECHO_OK;
    }
    if (out == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        return TECHO_OK;
    }
    if (out_size != (size_t)w * h * 4) {
        ctx.code = TECHO_ERR_BUFFER;
        png_error(png, "output buffer has the wrong size");
    }

    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        ctx.code = TECHO_ERR_CORRUPT;
        png_error(png, "unexpected row size after expansion to RGBA");
    }

    rows = malloc(sizeof(png_bytep) * h);
    if (rows == NULL) {
        ctx.code = TECHO_ERR_NOMEM;
        png_error(png, "out of memory");
    }
    for (uint32_t y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return TECHO_OK;
}

int techo_png_read_info(const uint8_t *data, size_t size, techo_limits limits,
                        techo_png_info *info, char *msg, size_t msg_cap) {
    return png_read_session(data, size, limits, info, NULL, 0, 0, NULL, 0, msg, msg_cap);
}

int techo_png_probe(const uint8_t *data, size_t size, techo_limits limits,
                    techo_png_info *info, char *msg, size_t msg_cap) {
    return png_read_session(data, size, limits, info, NULL, 0, 1, NULL, 0, msg, msg_cap);
}

int techo_png_decode_rgba(const uint8_t *data, size_t size, techo_limits limits,
                          uint8_t *out, size_t out_size,
                          char *notes, size_t notes_cap, char *msg, size_t msg_cap) {
    if (out == NULL) {
        techo_set_message(msg, msg_cap, "no output buffer");
        return TECHO_ERR_BUFFER;
    }
    return png_read_session(data, size, limits, NULL, out, out_size, 0, notes, notes_cap, msg, msg_cap);
}

/* ---- write ---- */

static void write_to_buffer(png_structp png, png_bytep bytes, size_t n) {
    techo_buffer *b = png_get_io_ptr(png);
    if (!techo_buffer_append(b, bytes, n)) {
        png_ctx *ctx = png_get_error_ptr(png);
        ctx->code = TECHO_ERR_NOMEM;
        png_error(png, "out of memory");
    }
}

static void flush_nothing(png_structp png) { (void)png; }

int techo_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int channels,
                          int level, int filters, uint32_t pixels_per_metre, int srgb,
                          techo_buffer *out, char *msg, size_t msg_cap) {
    techo_set_message(msg, msg_cap, "");
    if (rgba == NULL || out == NULL || width == 0 || height == 0 || (channels != 3 && channels != 4)
        || level < 0 || level > 9) {
        techo_set_message(msg, msg_cap, "invalid encoder arguments");
        return TECHO_ERR_BUFFER;
    }
    png_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.code = TECHO_ERR_CORRUPT;
    ctx.msg = msg;
    ctx.msg_cap = msg_cap;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error, on_png_warning);
    if (png == NULL) {
        techo_set_message(msg, msg_cap, "out of memory");
        return TECHO_ERR_NOMEM;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        techo_set_message(msg, msg_cap, "out of memory");
        return TECHO_ERR_NOMEM;
    }
    if (setjmp(ctx.jmp)) {
        png_destroy_write_struct(&png, &info);
        free(out->data);
        out->data = NULL;
        out->size = out->capacity = 0;
        return ctx.code;
    }
    png_set_write_fn(png, out, write_to_buffer, flush_nothing);
    png_set_compression_level(png, level);
    if (filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (pixels_per_metre > 0)
        png_set_pHYs(png, info, pixels_per_metre, pixels_per_metre, PNG_RESOLUTION_METER);
    png_write_info(png, info);
    if (channels == 3) png_set_filler(png, 0, PNG_FILLER_AFTER); /* drop the 4th byte */
    for (uint32_t y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * width * 4));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return TECHO_OK;
}
