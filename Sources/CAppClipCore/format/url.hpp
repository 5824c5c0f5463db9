// URLs as Apple's App Clip Code generator sees them: validation, compression to
// at most 128 bits, and decompression to Apple's canonical form.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "bits.hpp"
#include "status.hpp"

namespace appclip {

struct UrlParts {
    bool appclip_subdomain = false;  // host began with "appclip." (stripped from host)
    std::string host;                // lowercase
    std::string path;                // as written, with [ ] etc. percent-escaped
    std::string query;               // without '?'; empty = absent
    std::string fragment;            // without '#'; empty = absent
    bool has_payload() const { return !path.empty() || !query.empty() || !fragment.empty(); }
};

// Validates `url` with the generator's rules; errors say what and where.
Result<UrlParts> parse_url(const std::string& url);

struct CompressedUrl {
    std::array<std::uint8_t, 16> payload{};
    int bit_count = 0;
};

Result<CompressedUrl> compress_url(const std::string& url);
Result<std::string> decompress_url(const std::uint8_t* payload16);

// Unsigned LEB128 of a decimal string (no leading zeros); used by the URL coders.
bool decimal_is_canonical(const std::string& digits);
void decimal_to_leb128_bits(const std::string& digits, BitWriter& out);
bool leb128_bits_to_decimal(BitReader& in, std::string& digits);

}  // namespace appclip
