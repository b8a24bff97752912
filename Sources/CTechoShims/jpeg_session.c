/* Whole libjpeg-turbo sessions (decode and encode) from and to memory. Our error manager
 * longjmps back into this file; warnings become notes and nothing is ever printed. */
#include "common.h"
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* A progressive file can carry any number of scans; each costs a pass over the coefficients.
 * libjpeg-turbo's own tools stop at 500; so do we, to bound the time a hostile file takes. */
#define TECHO_JPEG_MAX_SCANS 500
#define TECHO_JPEG_MAX_NOTES 16

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jmp;
    int code;
    char *msg;
    size_t msg_cap;
    char *notes;
    size_t notes_cap;
    int notes_written;
} jpeg_err;

static int is_unsupported(int code) {
    return code == JERR_BAD_PRECISION || code == JERR_SOF_UNSUPPORTED || code == JERR_NOT_COMPILED
        || code == JERR_CONVERSION_NOTIMPL || code == JERR_ARITH_NOTIMPL || code == JERR_NOTIMPL;
}

static void fail(jpeg_err *e, int code, const char *text);

static void on_error_exit(j_common_ptr cinfo) {
    jpeg_err *e = (jpeg_err *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    techo_set_message(e->msg, e->msg_cap, text);
    if (e->code == TECHO_ERR_CORRUPT && is_unsupported(cinfo->err->msg_code)) e->code = TECHO_ERR_UNSUPPORTED;
    if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) e->code = TECHO_ERR_NOMEM;
    longjmp(e->jmp, 1);
}

/* Level -1 is a warning (corrupt data the library worked around); higher levels are traces. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    jpeg_err *e = (jpeg_err *)cinfo->err;
    /* Entropy-coded data that stops mid-image means the file is truncated: libjpeg would
     * fill the rest with grey and carry on, but a cut-off photo is an error for us. */
    if (cinfo->err->msg_code == JWRN_HIT_MARKER && cinfo->is_decompressor)
        fail(e, TECHO_ERR_CORRUPT, "image data ends early (the file is truncated or damaged)");
    cinfo->err->num_warnings++;
    if (e->notes_written >= TECHO_JPEG_MAX_NOTES) return;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    techo_append_note(e->notes, e->notes_cap, text);
    e->notes_written++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; /* never print */ }

static void fail(jpeg_err *e, int code, const char *text) {
    e->code = code;
    techo_set_message(e->msg, e->msg_cap, text);
    longjmp(e->jmp, 1);
}

static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > TECHO_JPEG_MAX_SCANS)
        fail((jpeg_err *)cinfo->err, TECHO_ERR_CORRUPT, "too many progressive scans");
}

static void init_errors(jpeg_err *e, char *notes, size_t notes_cap, char *msg, size_t msg_cap) {
    memset(e, 0, sizeof *e);
    jpeg_std_error(&e->pub);
    e->pub.error_exit = on_error_exit;
    e->pub.emit_message = on_emit_message;
    e->pub.output_message = on_output_message;
    e->code = TECHO_ERR_CORRUPT;
    e->msg = msg;
    e->msg_cap = msg_cap;
    e->notes = notes;
    e->notes_cap = notes_cap;
}

/* probe: with out == NULL, decode every scanline (at 1/scale_denom) into one row that libjpeg
 * allocates and frees, so the whole entropy-coded stream is checked without an image buffer. */
static int jpeg_read_session(const uint8_t *data, size_t size, techo_limits limits, int scale_denom,
                             techo_jpeg_info *info, uint8_t *out, size_t out_size, int probe,
                             char *notes, size_t notes_cap, char *msg, size_t msg_cap) {
    techo_set_message(msg, msg_cap, "");
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        techo_set_message(msg, msg_cap, "scale_denom must be 1, 2, 4 or 8");
        return TECHO_ERR_BUFFER;
    }
    if (size < 3 || data[0] != 0xFF || data[1] != 0xD8) {
        techo_set_message(msg, msg_cap, "not a JPEG signature");
        return TECHO_ERR_SIGNATURE;
    }
    struct jpeg_decompress_struct cinfo;
    struct jpeg_progress_mgr progress;
    jpeg_err err;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&progress, 0, sizeof progress);
    init_errors(&err, notes, notes_cap, msg, msg_cap);
    cinfo.err = &err.pub;
    if (setjmp(err.jmp)) {
        jpeg_destroy_decompress(&cinfo);
        return err.code;
    }
    jpeg_create_decompress(&cinfo);
    progress.progress_monitor = on_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);

    techo_jpeg_info local;
    techo_jpeg_info *inf = info ? info : &local;
    memset(inf, 0, sizeof *inf);
    inf->width = cinfo.image_width;
    inf->height = cinfo.image_height;
    inf->components = cinfo.num_components;
    inf->color_space = cinfo.jpeg_color_space;
    inf->progressive = cinfo.progressive_mode;
    inf->arithmetic = cinfo.arith_code;
    /* The SOF size, before jpeg_start_decompress allocates anything image-sized. */
    if (!techo_check_limits(cinfo.image_width, cinfo.image_height, limits))
        fail(&err, TECHO_ERR_LIMITS, "image size exceeds the limits");

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    if (cmyk) {
        cinfo.out_color_space = JCS_CMYK;
    } else if (cinfo.num_components == 1 || cinfo.num_components == 3) {
        cinfo.out_color_space = JCS_EXT_RGBA;
    } else {
        fail(&err, TECHO_ERR_UNSUPPORTED, "unsupported number of colour components");
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(&cinfo);
    inf->output_width = cinfo.output_width;
    inf->output_height = cinfo.output_height;
    if (out == NULL && probe) {
        jpeg_start_decompress(&cinfo);
        JSAMPARRAY row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                                    cinfo.output_width * (JDIMENSION)cinfo.output_components, 1);
        while (cinfo.output_scanline < cinfo.output_height)
            if (jpeg_read_scanlines(&cinfo, row, 1) == 0) fail(&err, TECHO_ERR_CORRUPT, "decoder made no progress");
        jpeg_finish_decompress(&cinfo);
        jpeg_destroy_decompress(&cinfo);
        return TECHO_OK;
    }
    if (out == NULL) {
        jpeg_destroy_decompress(&cinfo);
        return TECHO_OK;
    }
    size_t stride = (size_t)cinfo.output_width * 4;
    if (out_size != stride * cinfo.output_height)
        fail(&err, TECHO_ERR_BUFFER, "output buffer has the wrong size");

    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 4) fail(&err, TECHO_ERR_CORRUPT, "unexpected output components");
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION first = cinfo.output_scanline, want = cinfo.output_height - first;
        if (want > 16) want = 16;
        for (JDIMENSION i = 0; i < want; i++) rows[i] = out + (size_t)(first + i) * stride;
        if (jpeg_read_scanlines(&cinfo, rows, want) == 0) fail(&err, TECHO_ERR_CORRUPT, "decoder made no progress");
    }
    if (cmyk) {
        /* Adobe writes inverted CMYK; libjpeg hands the samples back as stored, so the naive
         * conversion R = C * K / 255 (rounded) gives the displayed colour. */
        uint8_t *p = out, *end = out + out_size;
        for (; p < end; p += 4) {
            unsigned k = p[3];
            p[0] = (uint8_t)((2u * p[0] * k + 255u) / 510u);
            p[1] = (uint8_t)((2u * p[1] * k + 255u) / 510u);
            p[2] = (uint8_t)((2u * p[2] * k + 255u) / 510u);
            p[3] = 255;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return TECHO_OK;
}

int techo_jpeg_read_info(const uint8_t *data, size_t size, techo_limits limits, int scale_denom,
                         techo_jpeg_info *info, char *msg, size_t msg_cap) {
    return jpeg_read_session(data, size, limits, scale_denom, info, NULL, 0, 0, NULL, 0, msg, msg_cap);
}

int techo_jpeg_probe(const uint8_t *data, size_t size, techo_limits limits,
                     techo_jpeg_info *info, char *msg, size_t msg_cap) {
    return jpeg_read_session(data, size, limits, 8, info, NULL, 0, 1, NULL, 0, msg, msg_cap);
}

int techo_jpeg_decode_rgba(const uint8_t *data, size_t size, techo_limits limits, int scale_denom,
                           uint8_t *out, size_t out_size,
                           char *notes, size_t notes_cap, char *msg, size_t msg_cap) {
    if (out == NULL) {
        techo_set_message(msg, msg_cap, "no output buffer");
        return TECHO_ERR_BUFFER;
    }
    return jpeg_read_session(data, size, limits, scale_denom, NULL, out, out_size, 0, notes, notes_cap, msg, msg_cap);
}

/* ---- encode ---- */

typedef struct {
    struct jpeg_destination_mgr pub;
    techo_buffer *out;
    JOCTET chunk[65536];
} buffer_dest;

static void dest_init(j_compress_ptr cinfo) {
    buffer_dest *d = (buffer_dest *)cinfo->dest;
    d->pub.next_output_byte = d->chunk;
    d->pub.free_in_buffer = sizeof d->chunk;
}

static boolean dest_empty(j_compress_ptr cinfo) {
    buffer_dest *d = (buffer_dest *)cinfo->dest;
    if (!techo_buffer_append(d->out, d->chunk, sizeof d->chunk)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    d->pub.next_output_byte = d->chunk;
    d->pub.free_in_buffer = sizeof d->chunk;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    buffer_dest *d = (buffer_dest *)cinfo->dest;
    size_t n = sizeof d->chunk - d->pub.free_in_buffer;
    if (!techo_buffer_append(d->out, d->chunk, n)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
}

int techo_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                           int subsample, int progressive, uint32_t dpi,
                           techo_buffer *out, char *msg, size_t msg_cap) {
    techo_set_message(msg, msg_cap, "");
    if (rgba == NULL || out == NULL || width == 0 || height == 0 || width > JPEG_MAX_DIMENSION
        || height > JPEG_MAX_DIMENSION || quality < 1 || quality > 100) {
        techo_set_message(msg, msg_cap, "invalid encoder arguments");
        return TECHO_ERR_BUFFER;
    }
    struct jpeg_compress_struct cinfo;
    jpeg_err err;
    buffer_dest *dest = malloc(sizeof *dest);
    if (dest == NULL) {
        techo_set_message(msg, msg_cap, "out of memory");
        return TECHO_ERR_NOMEM;
    }
    memset(&cinfo, 0, sizeof cinfo);
    init_errors(&err, NULL, 0, msg, msg_cap);
    cinfo.err = &err.pub;
    if (setjmp(err.jmp)) {
        jpeg_destroy_compress(&cinfo);
        free(dest);
        free(out->data);
        out->data = NULL;
        out->size = out->capacity = 0;
        return err.code;
    }
    jpeg_create_compress(&cinfo);
    dest->out = out;
    dest->pub.init_destination = dest_init;
    dest->pub.empty_output_buffer = dest_empty;
    dest->pub.term_destination = dest_term;
    cinfo.dest = &dest->pub;

    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    cinfo.dct_method = JDCT_ISLOW;
    if (!subsample) {
        cinfo.comp_info[0].h_samp_factor = 1;
        cinfo.comp_info[0].v_samp_factor = 1;
    }
    if (progressive) jpeg_simple_progression(&cinfo);
    if (dpi > 0) {
        cinfo.density_unit = 1;
        cinfo.X_density = cinfo.Y_density = (UINT16)(dpi > 65535 ? 65535 : dpi);
    }
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)width * 4;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[16];
        JDIMENSION first = cinfo.next_scanline, n = cinfo.image_height - first;
        if (n > 16) n = 16;
        for (JDIMENSION i = 0; i < n; i++) rows[i] = (JSAMPROW)(rgba + (size_t)(first + i) * stride);
        jpeg_write_scanlines(&cinfo, rows, n);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(dest);
    return TECHO_OK;
}
