#include "status.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace appclip {

acc_status report(const Failure& failure, acc_error* error) {
    if (error != nullptr) {
        error->status = failure.status;
        error->position = failure.position;
        error->value = failure.value;
        const char* message = failure.message();
        std::size_t n = std::min(std::strlen(message), sizeof(error->message) - 1);
        std::memcpy(error->message, message, n);
        error->message[n] = '\0';
    }
    return failure.status;
}

acc_status report_ok(acc_error* error) {
    if (error != nullptr) {
        error->status = ACC_OK;
        error->position = -1;
        error->value = -1;
        error->message[0] = '\0';
    }
    return ACC_OK;
}

}  // namespace appclip

extern "C" const char* acc_status_name(acc_status status) {
    switch (status) {
        case ACC_OK: return "ok";
        case ACC_E_INVALID_ARGUMENT: return "invalid_argument";
        case ACC_E_BUFFER_TOO_SMALL: return "buffer_too_small";
        case ACC_E_OUT_OF_MEMORY: return "out_of_memory";
        case ACC_E_URL_SCHEME: return "url_scheme";
        case ACC_E_URL_NO_HOST: return "url_no_host";
        case ACC_E_URL_USERINFO: return "url_userinfo";
        case ACC_E_URL_PORT: return "url_port";
        case ACC_E_URL_HOST_CHARACTER: return "url_host_character";
        case ACC_E_URL_PUNYCODE: return "url_punycode";
        case ACC_E_URL_CHARACTER: return "url_character";
        case ACC_E_URL_TOO_LONG: return "url_too_long";
        case ACC_E_PAYLOAD_INVALID: return "payload_invalid";
        case ACC_E_UNCORRECTABLE: return "uncorrectable";
        case ACC_E_UNSUPPORTED_VERSION: return "unsupported_version";
        case ACC_E_BIT_COUNT: return "bit_count";
        case ACC_E_SVG_MALFORMED: return "svg_malformed";
        case ACC_E_SVG_NOT_A_CODE: return "svg_not_a_code";
        case ACC_E_IMAGE_FORMAT: return "image_format";
        case ACC_E_IMAGE_TRUNCATED: return "image_truncated";
        case ACC_E_IMAGE_TOO_LARGE: return "image_too_large";
        case ACC_E_IMAGE_STRIDE: return "image_stride";
        case ACC_E_IO: return "io";
    }
    return "unknown";
}

extern "C" void acc_free(void* pointer) { std::free(pointer); }
