// libFuzzer target: the Reed-Solomon decoder on arbitrary words and erasure lists
// either fails and leaves the word untouched, or returns a word that re-encodes to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "appclip_core.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    auto code = static_cast<acc_rs_code>(data[0] % 4);
    int32_t n = 0, k = 0;
    if (acc_rs_shape(code, &n, &k) != ACC_OK) std::abort();
    uint8_t word[16] = {0};
    uint8_t mask = code == ACC_RS_METADATA ? 0x0F : 0xFF;
    for (int32_t i = 0; i < n; ++i) word[i] = static_cast<uint8_t>(data[(1 + i) % size] & mask);
    int32_t erasures[16];
    int32_t count = static_cast<int32_t>(data[1] % (n - k + 2));
    for (int32_t e = 0; e < count; ++e) erasures[e] = (e * 5 + data[(2 + e) % size]) % n;
    uint8_t before[16];
    std::memcpy(before, word, sizeof word);
    acc_error error;
    acc_status status = acc_rs_decode(code, word, erasures, count, nullptr, &error);
    if (status != ACC_OK) {
        if (std::memcmp(before, word, sizeof word) != 0) std::abort();
        return 0;
    }
    uint8_t encoded[16] = {0};
    if (acc_rs_encode(code, word, encoded, &error) != ACC_OK) std::abort();
    if (std::memcmp(encoded, word, static_cast<size_t>(n)) != 0) std::abort();
    return 0;
}
