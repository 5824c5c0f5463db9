#include "png_io.hpp"

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>

#include <png.h>

namespace appclip::io {
namespace {

struct ReadSource {
    const std::uint8_t* bytes;
    std::size_t length;
    std::size_t cursor;
    bool ran_out;
};

struct ErrorSink {
    char message[200];
};

// libpng requires the error callback not to return; it longjmps to png_jmpbuf.
void on_png_error(png_structp png, png_const_charp message) {
    auto* sink = static_cast<ErrorSink*>(png_get_error_ptr(png));
    if (sink != nullptr) std::snprintf(sink->message, sizeof(sink->message), "%s", message);
    png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

void read_from_memory(png_structp png, png_bytep data, png_size_t size) {
    auto* source = static_cast<ReadSource*>(png_get_io_ptr(png));
    if (source->length - source->cursor < size) {
        source->ran_out = true;
        png_error(png, "PNG data ends before the image is complete");
    }
    std::memcpy(data, source->bytes + source->cursor, size);
    source->cursor += size;
}

struct PngReader {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~PngReader() {
        if (png != nullptr) png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr);
    }
};

enum class Outcome { ok, libpng_error, too_large, out_of_memory };

struct ReadState {
    png_uint_32 width = 0;
    png_uint_32 height = 0;
    int has_alpha = 0;
    int gray = 0;
};

Outcome read_with_setjmp(PngReader& r, ReadSource& source, std::int64_t max_pixels,
                         PixelBuffer& wide, PixelBuffer& out, ReadState& state) {
    if (setjmp(png_jmpbuf(r.png))) return Outcome::libpng_error;
    png_set_read_fn(r.png, &source, read_from_memory);
    png_read_info(r.png, r.info);
    int bit_depth = 0, color_type = 0;
    png_get_IHDR(r.png, r.info, &state.width, &state.height, &bit_depth, &color_type, nullptr, nullptr,
                 nullptr);
    if (static_cast<std::int64_t>(state.width) * state.height > max_pixels) return Outcome::too_large;

    png_set_strip_16(r.png);
    png_set_packing(r.png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r.png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(r.png);
    if (png_get_valid(r.png, r.info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(r.png);
    png_set_interlace_handling(r.png);
    png_read_update_info(r.png, r.info);

    const int channels = png_get_channels(r.png, r.info);
    state.gray = (channels <= 2) ? 1 : 0;
    state.has_alpha = (channels == 2 || channels == 4) ? 1 : 0;
    const int w = static_cast<int>(state.width), h = static_cast<int>(state.height);
    if (!wide.allocate(w, h, channels)) return Outcome::out_of_memory;
    if (!out.allocate(w, h, state.gray ? 1 : 3)) return Outcome::out_of_memory;
    // Row pointers live in `wide`'s rows; libpng fills every pass for interlaced files.
    const int passes = png_set_interlace_handling(r.png);
    for (int pass = 0; pass < passes; ++pass)
        for (int y = 0; y < h; ++y) png_read_row(r.png, wide.row(y), nullptr);
    png_read_end(r.png, nullptr);
    return Outcome::ok;
}

// Alpha over white, or a plain copy when there is no alpha.
void flatten(PixelBuffer& wide, PixelBuffer& out) {
    const int in_c = wide.channels(), out_c = out.channels();
    const bool alpha = in_c == 2 || in_c == 4;
    for (int y = 0; y < out.height(); ++y) {
        const std::uint8_t* s = wide.row(y);
        std::uint8_t* d = out.row(y);
        for (int x = 0; x < out.width(); ++x, s += in_c, d += out_c) {
            const int a = alpha ? s[in_c - 1] : 255;
            for (int c = 0; c < out_c; ++c) d[c] = static_cast<std::uint8_t>((s[c] * a + 255 * (255 - a) + 127) / 255);
        }
    }
}

struct PngWriter {
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::FILE* file = nullptr;
    ~PngWriter() {
        if (png != nullptr) png_destroy_write_struct(&png, info != nullptr ? &info : nullptr);
        if (file != nullptr) std::fclose(file);
    }
};

bool write_with_setjmp(PngWriter& w, const acc_image_view& view, int color_type, bool bgr) {
    if (setjmp(png_jmpbuf(w.png))) return false;
    png_init_io(w.png, w.file);
    png_set_IHDR(w.png, w.info, static_cast<png_uint_32>(view.width), static_cast<png_uint_32>(view.height), 8,
                 color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(w.png, w.info);
    if (bgr) png_set_bgr(w.png);
    for (int y = 0; y < view.height; ++y) {
        png_write_row(w.png, const_cast<png_bytep>(view.data + static_cast<std::size_t>(y) * view.stride));
    }
    png_write_end(w.png, nullptr);
    return true;
}

}  // namespace

bool looks_like_png(const std::uint8_t* bytes, std::size_t length) {
    return length >= 8 && png_sig_cmp(const_cast<png_bytep>(bytes), 0, 8) == 0;
}

Failure decode_png(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels, PixelBuffer& out) {
    if (max_pixels <= 0) max_pixels = kDefaultMaxPixels;
    ErrorSink sink{};
    PngReader r;
    r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_png_error, on_png_warning);
    if (r.png == nullptr) return fail(ACC_E_OUT_OF_MEMORY, "libpng could not allocate a reader");
    r.info = png_create_info_struct(r.png);
    if (r.info == nullptr) return fail(ACC_E_OUT_OF_MEMORY, "libpng could not allocate an info struct");
    ReadSource source{bytes, length, 0, false};
    PixelBuffer wide;
    ReadState state;
    const Outcome outcome = read_with_setjmp(r, source, max_pixels, wide, out, state);
    switch (outcome) {
        case Outcome::libpng_error:
            out.adopt(nullptr, 0, 0, 0);
            return fail(source.ran_out ? ACC_E_IMAGE_TRUNCATED : ACC_E_IMAGE_FORMAT,
                        std::string("PNG could not be decoded: ") + sink.message,
                        static_cast<int>(source.cursor));
        case Outcome::too_large:
            out.adopt(nullptr, 0, 0, 0);
            return fail(ACC_E_IMAGE_TOO_LARGE, "PNG of " + std::to_string(state.width) + "x" +
                                                   std::to_string(state.height) + " pixels is over the limit of " +
                                                   std::to_string(max_pixels) + " pixels");
        case Outcome::out_of_memory:
            out.adopt(nullptr, 0, 0, 0);
            return fail(ACC_E_OUT_OF_MEMORY, "no memory for the decoded PNG pixels");
        case Outcome::ok: break;
    }
    flatten(wide, out);
    return Failure{};
}

Failure write_png(const char* path, const acc_image_view& view) {
    int color_type = 0;
    bool bgr = false;
    switch (view.format) {
        case ACC_PIXEL_GRAY8: color_type = PNG_COLOR_TYPE_GRAY; break;
        case ACC_PIXEL_RGB8: color_type = PNG_COLOR_TYPE_RGB; break;
        case ACC_PIXEL_BGR8: color_type = PNG_COLOR_TYPE_RGB; bgr = true; break;
        case ACC_PIXEL_RGBA8: color_type = PNG_COLOR_TYPE_RGB_ALPHA; break;
        case ACC_PIXEL_BGRA8: color_type = PNG_COLOR_TYPE_RGB_ALPHA; bgr = true; break;
        default: return fail(ACC_E_INVALID_ARGUMENT, "PNG output takes GRAY8, RGB8, BGR8, RGBA8 or BGRA8 pixels");
    }
    PngWriter w;
    w.file = std::fopen(path, "wb");
    if (w.file == nullptr) return fail(ACC_E_IO, std::string("cannot open for writing: ") + path);
    ErrorSink sink{};
    w.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_png_error, on_png_warning);
    if (w.png == nullptr) return fail(ACC_E_OUT_OF_MEMORY, "libpng could not allocate a writer");
    w.info = png_create_info_struct(w.png);
    if (w.info == nullptr) return fail(ACC_E_OUT_OF_MEMORY, "libpng could not allocate an info struct");
    if (!write_with_setjmp(w, view, color_type, bgr))
        return fail(ACC_E_IO, std::string("PNG could not be written: ") + sink.message);
    if (std::fflush(w.file) != 0) return fail(ACC_E_IO, std::string("write failed: ") + path);
    return Failure{};
}

}  // namespace appclip::io
