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

// decompress_url into buffers kept across calls: the reader decompresses the URL of every
// code it decodes, and once warm that allocates nothing.
class UrlDecompressor {
public:
    // The payload's URL into url(); a Failure (status not ACC_OK) when the bits are not
    // a compressed URL.
    Failure decompress(const std::uint8_t* payload16);
    // The last decompressed URL, until the next call.
    const std::string& url() const { return url_; }

private:
    // Each appends its part of the URL to url_.
    Failure host(BitReader& in, bool& more);
    Failure template_path(BitReader& in);
    Failure segmented_path(BitReader& in);
    Failure combined_path(BitReader& in);

    std::string url_;
    std::string text_, key_, value_;   // pieces of the one being read
};

// Unsigned LEB128 of a decimal string (no leading zeros); used by the URL coders.
bool decimal_is_canonical(const std::string& digits);
void decimal_to_leb128_bits(const std::string& digits, BitWriter& out);
bool leb128_bits_to_decimal(BitReader& in, std::string& digits);

}  // namespace appclip
