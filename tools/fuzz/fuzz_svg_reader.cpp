// libFuzzer target: the SVG reader and the decode behind it must never crash,
// hang or read out of bounds, whatever the bytes.
#include <cstddef>
#include <cstdint>

#include "appclip_core.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    acc_svg_code code;
    acc_error error;
    if (acc_svg_read(reinterpret_cast<const char*>(data), size, &code, &error) == ACC_OK) {
        acc_decode_result result;
        acc_codec_decode(&code.observation, &result, &error);
    }
    return 0;
}
