// libFuzzer target: any 16 bytes either fail with a typed error or decompress to a
// URL; compressing that URL gives Apple's canonical form, which must be a fixed
// point (canonical → compress → decompress → the same text).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "appclip_core.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t payload[ACC_PAYLOAD_BYTES] = {0};
    std::memcpy(payload, data, size < sizeof payload ? size : sizeof payload);
    char url[ACC_URL_CAPACITY];
    size_t length = 0;
    acc_error error;
    if (acc_url_decompress(payload, url, sizeof url, &length, &error) != ACC_OK) {
        if (error.status == ACC_OK) std::abort();  // a failure must say why
        return 0;
    }
    if (std::strlen(url) != length) std::abort();
    uint8_t again[ACC_PAYLOAD_BYTES];
    int32_t bits = 0;
    if (acc_url_compress(url, length, again, &bits, &error) == ACC_OK) {
        char canonical[ACC_URL_CAPACITY];
        size_t canonical_length = 0;
        if (acc_url_decompress(again, canonical, sizeof canonical, &canonical_length, &error) != ACC_OK) std::abort();
        uint8_t third[ACC_PAYLOAD_BYTES];
        if (acc_url_compress(canonical, canonical_length, third, &bits, &error) != ACC_OK) std::abort();
        char fixed[ACC_URL_CAPACITY];
        size_t fixed_length = 0;
        if (acc_url_decompress(third, fixed, sizeof fixed, &fixed_length, &error) != ACC_OK) std::abort();
        if (fixed_length != canonical_length || std::memcmp(fixed, canonical, fixed_length) != 0) std::abort();
    }
    // Compressing arbitrary text must also be safe.
    acc_url_compress(reinterpret_cast<const char*>(data), size, again, &bits, &error);
    return 0;
}
