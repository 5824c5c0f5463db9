// Bit strings for the URL coders: written MSB-first, read back with bounds checks.
#pragma once
#include <cstdint>
#include <vector>

namespace appclip {

class BitWriter {
public:
    void put(bool bit) { bits_.push_back(bit ? 1 : 0); }
    void put(std::uint64_t value, int count) {  // count bits of value, MSB first
        for (int i = count - 1; i >= 0; --i) put(((value >> i) & 1u) != 0);
    }
    void append(const BitWriter& other) { bits_.insert(bits_.end(), other.bits_.begin(), other.bits_.end()); }
    std::size_t size() const { return bits_.size(); }
    const std::vector<std::uint8_t>& bits() const { return bits_; }
    void clear() { bits_.clear(); }

private:
    std::vector<std::uint8_t> bits_;  // one bit per element: clarity over packing for < 1k bits
};

// Reads bits [begin, end) of a big-endian byte string.
class BitReader {
public:
    BitReader(const std::uint8_t* bytes, int begin, int end) : bytes_(bytes), pos_(begin), end_(end) {}
    bool at_end() const { return pos_ >= end_; }
    int remaining() const { return end_ - pos_; }
    int position() const { return pos_; }
    // Returns -1 past the end.
    int bit() {
        if (pos_ >= end_) return -1;
        int b = (bytes_[pos_ >> 3] >> (7 - (pos_ & 7))) & 1;
        ++pos_;
        return b;
    }
    // Reads count bits MSB first; false past the end.
    bool read(int count, std::uint32_t& value) {
        if (count > remaining()) return false;
        value = 0;
        for (int i = 0; i < count; ++i) value = (value << 1) | static_cast<std::uint32_t>(bit());
        return true;
    }

private:
    const std::uint8_t* bytes_;
    int pos_;
    int end_;
};

}  // namespace appclip
