// An image the io layer decoded: malloc'd pixels handed to the caller as acc_owned_image.
#pragma once
#include <cstdint>
#include <cstdlib>

#include "appclip_core.h"

namespace appclip::io {

// Owns malloc'd pixel rows until release() gives them to an acc_owned_image.
class PixelBuffer {
public:
    PixelBuffer() = default;
    PixelBuffer(const PixelBuffer&) = delete;
    PixelBuffer& operator=(const PixelBuffer&) = delete;
    ~PixelBuffer() { std::free(data_); }

    // Returns false when the allocation fails (the caller reports out-of-memory).
    bool allocate(int width, int height, int channels) {
        std::free(data_);
        data_ = nullptr;
        const std::size_t stride = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
        const std::size_t bytes = stride * static_cast<std::size_t>(height);
        data_ = static_cast<std::uint8_t*>(std::malloc(bytes == 0 ? 1 : bytes));
        width_ = width;
        height_ = height;
        channels_ = channels;
        return data_ != nullptr;
    }
    std::uint8_t* row(int y) { return data_ + static_cast<std::size_t>(y) * stride(); }
    std::uint8_t* data() { return data_; }
    int width() const { return width_; }
    int height() const { return height_; }
    int channels() const { return channels_; }
    std::size_t stride() const { return static_cast<std::size_t>(width_) * channels_; }

    // Takes ownership of malloc'd pixels.
    void adopt(std::uint8_t* data, int width, int height, int channels) {
        std::free(data_);
        data_ = data;
        width_ = width;
        height_ = height;
        channels_ = channels;
    }

    void release_into(acc_owned_image* image) {
        image->data = data_;
        image->width = width_;
        image->height = height_;
        image->stride = static_cast<std::int32_t>(stride());
        image->format = channels_ == 1 ? ACC_PIXEL_GRAY8 : ACC_PIXEL_RGB8;
        data_ = nullptr;
    }

private:
    std::uint8_t* data_ = nullptr;
    int width_ = 0;
    int height_ = 0;
    int channels_ = 0;
};

constexpr std::int64_t kDefaultMaxPixels = 100'000'000;

}  // namespace appclip::io
