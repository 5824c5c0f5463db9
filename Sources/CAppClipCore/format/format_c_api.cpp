// C entry points of the format layer: URL (de)compression and the ring codec.
#include <cstring>
#include <exception>
#include <new>

#include "appclip_core.h"
#include "codec.hpp"
#include "url.hpp"

using namespace appclip;

namespace {

// No C++ exception may cross the C boundary.
template <typename Body>
acc_status guarded(acc_error* error, Body body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return report(fail(ACC_E_OUT_OF_MEMORY, "out of memory"), error);
    } catch (const std::exception& e) {
        return report(fail(ACC_E_INVALID_ARGUMENT, std::string("internal error: ") + e.what()), error);
    }
}

}  // namespace

extern "C" acc_status acc_url_compress(const char* url, size_t url_length, uint8_t payload[ACC_PAYLOAD_BYTES],
                                       int32_t* bit_count, acc_error* error) {
    return guarded(error, [&]() {
        if (url == nullptr || payload == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "url and payload must not be NULL"), error);
        auto r = compress_url(std::string(url, url_length));
        if (!r.ok()) return report(r.failure(), error);
        std::memcpy(payload, r.value().payload.data(), ACC_PAYLOAD_BYTES);
        if (bit_count != nullptr) *bit_count = r.value().bit_count;
        return report_ok(error);
    });
}

extern "C" acc_status acc_url_decompress(const uint8_t payload[ACC_PAYLOAD_BYTES], char* url, size_t url_capacity,
                                         size_t* url_length, acc_error* error) {
    return guarded(error, [&]() {
        if (payload == nullptr || url == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "payload and url must not be NULL"), error);
        auto r = decompress_url(payload);
        if (!r.ok()) return report(r.failure(), error);
        const std::string& text = r.value();
        if (url_length != nullptr) *url_length = text.size();
        if (text.size() + 1 > url_capacity)
            return report(fail(ACC_E_BUFFER_TOO_SMALL, "the URL needs " + std::to_string(text.size() + 1) + " bytes", -1,
                               static_cast<int>(text.size() + 1)), error);
        std::memcpy(url, text.c_str(), text.size() + 1);
        return report_ok(error);
    });
}

extern "C" acc_status acc_codec_encode(const uint8_t payload[ACC_PAYLOAD_BYTES], acc_code_bits* bits, acc_error* error) {
    return guarded(error, [&]() {
        if (payload == nullptr || bits == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "payload and bits must not be NULL"), error);
        auto r = encode_payload(payload);
        if (!r.ok()) return report(r.failure(), error);
        *bits = r.value();
        return report_ok(error);
    });
}

extern "C" acc_status acc_codec_decode(const acc_ring_observation* observation, acc_decode_result* result, acc_error* error) {
    return guarded(error, [&]() {
        if (observation == nullptr || result == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "observation and result must not be NULL"), error);
        auto r = decode_observation(*observation);
        if (!r.ok()) return report(r.failure(), error);
        *result = r.value();
        return report_ok(error);
    });
}
