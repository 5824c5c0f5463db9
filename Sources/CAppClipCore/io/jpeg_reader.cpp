#include "jpeg_reader.hpp"

#include <csetjmp>
#include <cstdio>
#include <cstring>

#include <jpeglib.h>
#include <jerror.h>

#include "exif_orientation.hpp"

namespace appclip::io {
namespace {

// libjpeg reports fatal errors through error_exit, which must not return: we longjmp
// back into decode_with_setjmp. Only plain C data lives in that function's frame, so
// the jump skips no destructor.
struct ErrorManager {
    jpeg_error_mgr base;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool premature_end;   // libjpeg hit the end of data and padded with a fake EOI
    bool corrupt;         // a "corrupt data" warning was emitted
};

void on_error_exit(j_common_ptr cinfo) {
    auto* manager = reinterpret_cast<ErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, manager->message);
    std::longjmp(manager->jump, 1);
}

void on_emit_message(j_common_ptr cinfo, int level) {
    auto* manager = reinterpret_cast<ErrorManager*>(cinfo->err);
    if (level >= 0) return;  // trace messages
    // Warnings: remember the ones that mean the data is damaged.
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        manager->premature_end = true;
    } else {
        manager->corrupt = true;
    }
    cinfo->err->num_warnings++;
}

// Owns the decompressor for the whole decode so it is destroyed on every path.
struct Decompressor {
    jpeg_decompress_struct cinfo{};
    ErrorManager errors{};
    bool created = false;
    ~Decompressor() {
        if (created) jpeg_destroy_decompress(&cinfo);
    }
};

enum class Outcome { ok, libjpeg_error, too_large, out_of_memory, implausible };

struct DecodeState {
    int orientation = 1;
    int scale_denom = 1;
    long long full_width = 0;
    long long full_height = 0;
    int cmyk_inverted = 0;
};

void cmyk_row_to_rgb(const JSAMPLE* cmyk, std::uint8_t* rgb, int width, bool inverted) {
    for (int x = 0; x < width; ++x) {
        int c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {  // Adobe writes inverted CMYK; plain CMYK needs flipping first
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        rgb[3 * x] = static_cast<std::uint8_t>(c * k / 255);
        rgb[3 * x + 1] = static_cast<std::uint8_t>(m * k / 255);
        rgb[3 * x + 2] = static_cast<std::uint8_t>(y * k / 255);
    }
}

// All libjpeg calls happen here, below the setjmp. `row_scratch` and `out` belong to
// the caller so that a longjmp leaves them to their destructors in the caller's frame.
Outcome decode_with_setjmp(Decompressor& d, const std::uint8_t* bytes, std::size_t length,
                           std::int64_t max_pixels, PixelBuffer& out, PixelBuffer& cmyk_row,
                           DecodeState& state) {
    if (setjmp(d.errors.jump)) return Outcome::libjpeg_error;
    jpeg_create_decompress(&d.cinfo);
    d.created = true;
    jpeg_mem_src(&d.cinfo, bytes, static_cast<unsigned long>(length));
    jpeg_save_markers(&d.cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&d.cinfo, TRUE);

    for (jpeg_saved_marker_ptr m = d.cinfo.marker_list; m != nullptr; m = m->next) {
        if (m->marker == JPEG_APP0 + 1) {
            state.orientation = exif_orientation(m->data, m->data_length);
            if (state.orientation != 1) break;
        }
    }
    state.full_width = d.cinfo.image_width;
    state.full_height = d.cinfo.image_height;
    // Every 8x8 block costs at least ~6 bits even when flat; a file far too short for
    // the size it claims is refused before any pixel memory is taken.
    const long long blocks = ((state.full_width + 7) / 8) * ((state.full_height + 7) / 8);
    if (static_cast<long long>(length) < blocks / 64) return Outcome::implausible;

    // Smallest DCT reduction (1, 1/2, 1/4, 1/8) that fits the pixel budget.
    int denom = 1;
    for (; denom <= 8; denom *= 2) {
        const long long w = (state.full_width + denom - 1) / denom;
        const long long h = (state.full_height + denom - 1) / denom;
        if (w * h <= max_pixels) break;
    }
    if (denom > 8) return Outcome::too_large;
    state.scale_denom = denom;
    d.cinfo.scale_num = 1;
    d.cinfo.scale_denom = static_cast<unsigned>(denom);

    const J_COLOR_SPACE space = d.cinfo.jpeg_color_space;
    const bool cmyk = space == JCS_CMYK || space == JCS_YCCK;
    state.cmyk_inverted = d.cinfo.saw_Adobe_marker ? 1 : 0;
    d.cinfo.out_color_space = space == JCS_GRAYSCALE ? JCS_GRAYSCALE : (cmyk ? JCS_CMYK : JCS_RGB);
    jpeg_start_decompress(&d.cinfo);

    const int width = static_cast<int>(d.cinfo.output_width);
    const int height = static_cast<int>(d.cinfo.output_height);
    const int channels = d.cinfo.out_color_space == JCS_GRAYSCALE ? 1 : 3;
    if (!out.allocate(width, height, channels)) return Outcome::out_of_memory;
    if (cmyk && !cmyk_row.allocate(width, 1, 4)) return Outcome::out_of_memory;

    while (d.cinfo.output_scanline < d.cinfo.output_height) {
        const int y = static_cast<int>(d.cinfo.output_scanline);
        JSAMPROW row = cmyk ? cmyk_row.data() : out.row(y);
        if (jpeg_read_scanlines(&d.cinfo, &row, 1) != 1) break;
        if (cmyk) cmyk_row_to_rgb(cmyk_row.data(), out.row(y), width, state.cmyk_inverted != 0);
    }
    jpeg_finish_decompress(&d.cinfo);
    return Outcome::ok;
}

}  // namespace

bool looks_like_jpeg(const std::uint8_t* bytes, std::size_t length) {
    return length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

Failure decode_jpeg(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels,
                    PixelBuffer& out) {
    if (max_pixels <= 0) max_pixels = kDefaultMaxPixels;
    Decompressor d;
    d.cinfo.err = jpeg_std_error(&d.errors.base);
    d.errors.base.error_exit = on_error_exit;
    d.errors.base.emit_message = on_emit_message;
    PixelBuffer cmyk_row;
    DecodeState state;
    const Outcome outcome = decode_with_setjmp(d, bytes, length, max_pixels, out, cmyk_row, state);

    switch (outcome) {
        case Outcome::libjpeg_error: {
            out.adopt(nullptr, 0, 0, 0);
            const int code = d.errors.base.msg_code;
            const bool truncated = d.errors.premature_end || code == JERR_INPUT_EMPTY ||
                                   code == JERR_INPUT_EOF || code == JERR_NO_IMAGE;
            return fail(truncated ? ACC_E_IMAGE_TRUNCATED : ACC_E_IMAGE_FORMAT,
                        std::string("JPEG could not be decoded: ") + d.errors.message);
        }
        case Outcome::too_large:
            return fail(ACC_E_IMAGE_TOO_LARGE,
                        "JPEG of " + std::to_string(state.full_width) + "x" + std::to_string(state.full_height) +
                            " pixels is over the limit of " + std::to_string(max_pixels) +
                            " pixels even at 1/8 scale",
                        -1, -1);
        case Outcome::out_of_memory:
            out.adopt(nullptr, 0, 0, 0);
            return fail(ACC_E_OUT_OF_MEMORY, "no memory for the decoded JPEG pixels");
        case Outcome::implausible:
            return fail(ACC_E_IMAGE_TRUNCATED,
                        "JPEG claims " + std::to_string(state.full_width) + "x" + std::to_string(state.full_height) +
                            " pixels but holds only " + std::to_string(length) + " bytes",
                        -1, static_cast<int>(std::min<std::size_t>(length, 0x7fffffff)));
        case Outcome::ok: break;
    }
    if (d.errors.premature_end) {
        out.adopt(nullptr, 0, 0, 0);
        return fail(ACC_E_IMAGE_TRUNCATED, "JPEG data ends before the image is complete");
    }
    if (!apply_orientation(out, state.orientation)) {
        out.adopt(nullptr, 0, 0, 0);
        return fail(ACC_E_OUT_OF_MEMORY, "no memory to apply the EXIF orientation");
    }
    return Failure{};
}

}  // namespace appclip::io
