#ifndef TECHO_SHIMS_H
#define TECHO_SHIMS_H
/*
 * The only C techo writes: each function runs one whole libpng or libjpeg session, so the
 * setjmp/longjmp those libraries use for errors never crosses a Swift frame. Every function
 * returns a TECHO_* code and, on failure, a NUL-terminated message in the caller's buffer.
 * Shape after libspng: limits are given up front, the header is read first (no allocation
 * proportional to the image before the limits pass), then pixels go into the caller's buffer.
 */
#include <stddef.h>
#include <stdint.h>

enum {
    TECHO_OK = 0,
    TECHO_ERR_CORRUPT = 1,      /* the library rejected the data (message says why) */
    TECHO_ERR_LIMITS = 2,       /* the header claims more pixels than the limits allow */
    TECHO_ERR_NOMEM = 3,        /* an allocation failed */
    TECHO_ERR_BUFFER = 4,       /* the caller's buffer has the wrong size (a bug in the caller) */
    TECHO_ERR_UNSUPPORTED = 5,  /* valid data of a kind we do not decode (12-bit JPEG, ...) */
    TECHO_ERR_SIGNATURE = 6,    /* the data does not start with the format's signature */
};

/* Limits checked before any allocation that depends on the image size. */
typedef struct {
    uint32_t max_side;     /* largest width or height accepted */
    uint64_t max_pixels;   /* largest width * height accepted */
} techo_limits;

/* A growable output buffer filled by the encoders; free `data` with techo_free. */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} techo_buffer;

void techo_free(void *p);

/* ---- PNG ---- */

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;    /* as stored: 1, 2, 4, 8, 16 */
    int color_type;   /* as stored: 0 grey, 2 rgb, 3 palette, 4 grey+alpha, 6 rgba */
    int interlaced;   /* 1 for Adam7 */
} techo_png_info;

/* Reads the header (and every chunk before IDAT). Fills `info` when it returns TECHO_OK, and
 * also when it returns TECHO_ERR_LIMITS (so the caller can say how big the image claims to be). */
int techo_png_read_info(const uint8_t *data, size_t size, techo_limits limits,
                        techo_png_info *info, char *msg, size_t msg_cap);

/* Checks the whole file can be decoded without decoding it into an image: the header within
 * the limits, then every row inflated and unfiltered into one reused row buffer, then every
 * chunk to IEND with its CRC. Memory is one row. Fills `info` like techo_png_read_info. */
int techo_png_probe(const uint8_t *data, size_t size, techo_limits limits,
                    techo_png_info *info, char *msg, size_t msg_cap);

/* Decodes to straight RGBA8 (width * height * 4 bytes in `out`): palettes and tRNS expanded,
 * 16-bit reduced to its high byte, grey copied to R=G=B, opaque alpha added, Adam7 undone,
 * no gamma. Warnings are appended to `notes` (one per line, truncated to notes_cap). */
int techo_png_decode_rgba(const uint8_t *data, size_t size, techo_limits limits,
                          uint8_t *out, size_t out_size,
                          char *notes, size_t notes_cap, char *msg, size_t msg_cap);

/* Encodes straight RGBA8 pixels. channels 3 writes RGB (the alpha bytes are skipped), 4 RGBA.
 * level: zlib level 0-9. filters: a PNG_FILTER_* mask, or 0 for libpng's default choice.
 * pixels_per_metre: 0 writes no pHYs. srgb: nonzero writes an sRGB chunk (perceptual). */
int techo_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int channels,
                          int level, int filters, uint32_t pixels_per_metre, int srgb,
                          techo_buffer *out, char *msg, size_t msg_cap);

/* ---- JPEG ---- */

typedef struct {
    uint32_t width;          /* as coded */
    uint32_t height;
    int components;          /* 1, 3 or 4 */
    int color_space;         /* libjpeg's J_COLOR_SPACE of the file */
    int progressive;
    int arithmetic;
    uint32_t output_width;   /* after scaling by 1/scale_denom */
    uint32_t output_height;
} techo_jpeg_info;

/* Reads the header. scale_denom is 1, 2, 4 or 8. Fills `info` on TECHO_OK and TECHO_ERR_LIMITS. */
int techo_jpeg_read_info(const uint8_t *data, size_t size, techo_limits limits, int scale_denom,
                         techo_jpeg_info *info, char *msg, size_t msg_cap);

/* Checks the whole file can be decoded without an image buffer: the header within the limits,
 * then every scanline decoded at 1/8 scale into one row (all entropy-coded data is read, so a
 * truncated or damaged stream fails). Fills `info` like techo_jpeg_read_info at scale 1/8. */
int techo_jpeg_probe(const uint8_t *data, size_t size, techo_limits limits,
                     techo_jpeg_info *info, char *msg, size_t msg_cap);

/* Decodes to RGBA8 (alpha 255), output_width * output_height * 4 bytes. Grey becomes R=G=B;
 * CMYK/YCCK (Adobe-inverted) become RGB with R = C*K/255. libjpeg's warnings go to `notes`,
 * never to stderr. */
int techo_jpeg_decode_rgba(const uint8_t *data, size_t size, techo_limits limits, int scale_denom,
                           uint8_t *out, size_t out_size,
                           char *notes, size_t notes_cap, char *msg, size_t msg_cap);

/* Encodes RGBA8 pixels (alpha ignored) as a baseline or progressive YCbCr JPEG.
 * quality 1-100; subsample nonzero for 4:2:0, zero for 4:4:4; dpi 0 writes no density. */
int techo_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                           int subsample, int progressive, uint32_t dpi,
                           techo_buffer *out, char *msg, size_t msg_cap);

#endif
