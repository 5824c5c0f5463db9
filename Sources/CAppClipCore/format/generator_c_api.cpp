// C entry points for writing and reading codes: palettes, SVG, raster.
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

#include "appclip_core.h"
#include "codec.hpp"
#include "drawing.hpp"
#include "format_tables.hpp"
#include "raster.hpp"
#include "svg.hpp"
#include "url.hpp"

using namespace appclip;

namespace {

// URL → drawing, with the checks every generator entry point shares.
Result<Drawing> drawing_for(const char* url, size_t url_length, const acc_generate_options* options) {
    if (url == nullptr || options == nullptr) return fail(ACC_E_INVALID_ARGUMENT, "url and options must not be NULL");
    if (options->logo != ACC_LOGO_NONE && options->logo != ACC_LOGO_CAMERA && options->logo != ACC_LOGO_NFC)
        return fail(ACC_E_INVALID_ARGUMENT, "unknown logo kind");
    auto compressed = compress_url(std::string(url, url_length));
    if (!compressed.ok()) return compressed.failure();
    auto bits = encode_payload(compressed.value().payload.data());
    if (!bits.ok()) return bits.failure();
    return make_drawing(bits.value(), options->palette, options->logo);
}

}  // namespace

extern "C" acc_status acc_template_palette(int32_t index, acc_palette* palette, acc_error* error) {
    if (palette == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "palette must not be NULL"), error);
    if (index < 0 || static_cast<std::size_t>(index) >= data::template_count)
        return report(fail(ACC_E_INVALID_ARGUMENT, "template index must be 0..17, got " + std::to_string(index), -1, index), error);
    const auto& p = data::templates[index];
    *palette = acc_palette{p.foreground, p.background, p.third};
    return report_ok(error);
}

extern "C" uint32_t acc_third_color(uint32_t foreground, uint32_t background) {
    for (std::size_t i = 0; i < data::template_count; ++i) {
        const auto& p = data::templates[i];
        if ((p.foreground == foreground && p.background == background) || (p.foreground == background && p.background == foreground))
            return p.third;
    }
    // Apple's rule for custom pairs is unpublished; the midpoint is the known approximation.
    uint32_t out = 0;
    for (int shift = 0; shift <= 16; shift += 8)
        out |= ((((foreground >> shift) & 0xFFu) + ((background >> shift) & 0xFFu)) / 2u) << shift;
    return out;
}

extern "C" acc_status acc_svg_generate(const char* url, size_t url_length, const acc_generate_options* options, char** svg,
                                       size_t* svg_length, acc_error* error) {
    return guarded(error, [&]() {
        if (svg == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "svg must not be NULL"), error);
        auto drawing = drawing_for(url, url_length, options);
        if (!drawing.ok()) return report(drawing.failure(), error);
        std::string text = write_svg(drawing.value(), std::string(url, url_length));
        char* out = static_cast<char*>(std::malloc(text.size() + 1));
        if (out == nullptr) return report(fail(ACC_E_OUT_OF_MEMORY, "out of memory"), error);
        std::memcpy(out, text.c_str(), text.size() + 1);
        *svg = out;
        if (svg_length != nullptr) *svg_length = text.size();
        return report_ok(error);
    });
}

extern "C" acc_status acc_raster_generate(const char* url, size_t url_length, const acc_generate_options* options, int32_t size,
                                          uint8_t** rgba, acc_error* error) {
    return guarded(error, [&]() {
        if (rgba == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "rgba must not be NULL"), error);
        if (size < 16 || size > 16384)
            return report(fail(ACC_E_INVALID_ARGUMENT, "raster size must be 16..16384 pixels, got " + std::to_string(size), -1, size), error);
        auto drawing = drawing_for(url, url_length, options);
        if (!drawing.ok()) return report(drawing.failure(), error);
        std::size_t bytes = static_cast<std::size_t>(size) * static_cast<std::size_t>(size) * 4u;
        auto* out = static_cast<uint8_t*>(std::malloc(bytes));
        if (out == nullptr) return report(fail(ACC_E_OUT_OF_MEMORY, "out of memory"), error);
        rasterize(drawing.value(), size, out);
        *rgba = out;
        return report_ok(error);
    });
}

extern "C" acc_status acc_svg_read(const char* svg, size_t svg_length, acc_svg_code* code, acc_error* error) {
    return guarded(error, [&]() {
        if (svg == nullptr || code == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "svg and code must not be NULL"), error);
        auto r = read_svg(std::string(svg, svg_length));
        if (!r.ok()) return report(r.failure(), error);
        *code = r.value();
        return report_ok(error);
    });
}
