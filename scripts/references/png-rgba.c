/* Decodes one PNG with libpng to 8-bit RGBA on stdout, for scripts/references/png-references.py.
 *
 * The reference rule of Tests/TechoCodecsTests/Fixtures/README.md, in libpng's own transforms:
 * expand palette, low-bit grey and tRNS (png_set_expand: the tRNS key is compared with the
 * full-depth samples, before the 16-bit reduction), reduce 16-bit samples to their high byte
 * (png_set_strip_16), grey to RGB, an opaque alpha where the image has none, Adam7 de-interlaced.
 * No gamma or colour management (gAMA, cHRM, sRGB, iCCP and cICP are not applied) and bKGD is
 * not composited. Writes "WIDTH HEIGHT\n" and then width*height*4 bytes, row-major, top-down.
 * Exits 1, with libpng's message on stderr, when libpng refuses the file; its warnings are kept
 * off stderr (a warning is not a refusal).
 *
 *   cc png-rgba.c $(pkg-config --cflags --libs libpng) -o png-rgba && ./png-rgba FILE.png
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static void on_error(png_structp png, png_const_charp message) {
    fprintf(stderr, "%s\n", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: png-rgba FILE.png\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) return 1;
    png_bytep pixels = NULL;
    png_bytepp rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return 1;
    }
    png_init_io(png, file);
    png_read_info(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)width * 4) png_error(png, "not 8-bit RGBA after the transforms");
    pixels = malloc(rowbytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    printf("%u %u\n", (unsigned)width, (unsigned)height);
    fwrite(pixels, 1, rowbytes * height, stdout);
    free(rows);
    free(pixels);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    return fflush(stdout) == 0 ? 0 : 1;
}
