// C entry points of the io layer: image loading and PNG writing. Nothing escapes as an exception.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "appclip_core.h"
#include "../format/status.hpp"
#include "decoded_image.hpp"
#include "jpeg_reader.hpp"
#include "png_io.hpp"

namespace {

using appclip::Failure;
using appclip::fail;

Failure decode_any(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels,
                   appclip::io::PixelBuffer& pixels) {
    if (length == 0) return fail(ACC_E_IMAGE_TRUNCATED, "the image data is empty (zero bytes)");
    if (appclip::io::looks_like_jpeg(bytes, length))
        return appclip::io::decode_jpeg(bytes, length, max_pixels, pixels);
    if (appclip::io::looks_like_png(bytes, length))
        return appclip::io::decode_png(bytes, length, max_pixels, pixels);
    if (length < 8) return fail(ACC_E_IMAGE_TRUNCATED, "too few bytes to be a JPEG or PNG file");
    return fail(ACC_E_IMAGE_FORMAT, "not a JPEG or PNG file (unknown signature)", 0);
}

acc_status load(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels, acc_owned_image* image,
                acc_error* error) {
    appclip::io::PixelBuffer pixels;
    const Failure failure = decode_any(bytes, length, max_pixels, pixels);
    if (failure.status != ACC_OK) return appclip::report(failure, error);
    pixels.release_into(image);
    return appclip::report_ok(error);
}

}  // namespace

extern "C" acc_status acc_image_load_memory(const uint8_t* bytes, size_t length, int64_t max_pixels,
                                            acc_owned_image* image, acc_error* error) {
    if (image == nullptr || (bytes == nullptr && length != 0))
        return appclip::report(fail(ACC_E_INVALID_ARGUMENT, "image and bytes must not be NULL"), error);
    *image = acc_owned_image{};
    try {
        return load(bytes, length, max_pixels, image, error);
    } catch (const std::bad_alloc&) {
        return appclip::report(fail(ACC_E_OUT_OF_MEMORY, "out of memory while decoding the image"), error);
    } catch (const std::exception& e) {
        return appclip::report(fail(ACC_E_IMAGE_FORMAT, std::string("image decoding failed: ") + e.what()), error);
    } catch (...) {
        return appclip::report(fail(ACC_E_IMAGE_FORMAT, "image decoding failed"), error);
    }
}

extern "C" acc_status acc_image_load_file(const char* path, int64_t max_pixels, acc_owned_image* image,
                                          acc_error* error) {
    if (path == nullptr || image == nullptr)
        return appclip::report(fail(ACC_E_INVALID_ARGUMENT, "path and image must not be NULL"), error);
    *image = acc_owned_image{};
    try {
        // Owned by a unique_ptr so the file is closed even if growing the buffer throws.
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path, "rb"), &std::fclose);
        if (!file) return appclip::report(fail(ACC_E_IO, std::string("cannot open ") + path), error);
        std::vector<std::uint8_t> bytes;
        std::uint8_t chunk[65536];
        std::size_t n = 0;
        while ((n = std::fread(chunk, 1, sizeof(chunk), file.get())) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
        const bool read_error = std::ferror(file.get()) != 0;
        file.reset();
        if (read_error) return appclip::report(fail(ACC_E_IO, std::string("error reading ") + path), error);
        return load(bytes.data(), bytes.size(), max_pixels, image, error);
    } catch (const std::bad_alloc&) {
        return appclip::report(fail(ACC_E_OUT_OF_MEMORY, "out of memory while loading the image"), error);
    } catch (...) {
        return appclip::report(fail(ACC_E_IO, "image loading failed"), error);
    }
}

extern "C" void acc_image_free(acc_owned_image* image) {
    if (image == nullptr) return;
    std::free(image->data);
    *image = acc_owned_image{};
}

extern "C" acc_status acc_png_write_file(const char* path, const acc_image_view* view, acc_error* error) {
    if (path == nullptr) return appclip::report(fail(ACC_E_INVALID_ARGUMENT, "path must not be NULL"), error);
    const acc_status valid = acc_image_view_validate(view, error);
    if (valid != ACC_OK) return valid;
    try {
        const Failure failure = appclip::io::write_png(path, *view);
        if (failure.status != ACC_OK) return appclip::report(failure, error);
        return appclip::report_ok(error);
    } catch (...) {
        return appclip::report(fail(ACC_E_IO, "PNG writing failed"), error);
    }
}
