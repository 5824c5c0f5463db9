// C entry points of the format layer: URL (de)compression and the ring codec.
#include <cstring>
#include <exception>
#include <new>

#include "appclip_core.h"
#include "codec.hpp"
#include "format_tables.hpp"
#include "url.hpp"

using namespace appclip;


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

extern "C" acc_status acc_codec_encode_token(const uint8_t token[ACC_TOKEN_BYTES], acc_code_bits* bits, acc_error* error) {
    return guarded(error, [&]() {
        if (token == nullptr || bits == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "token and bits must not be NULL"), error);
        auto r = encode_token(token);
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

namespace {

const ReedSolomon* rs_for(acc_rs_code code, int& n, int& k) {
    const FormatTables& t = tables();
    switch (code) {
        case ACC_RS_METADATA: n = 4; k = 2; return &t.metadata_rs;
        case ACC_RS_GAPS_V0: n = 13; k = 9; return &t.gaps_rs_v0;
        case ACC_RS_GAPS_V1: n = 13; k = 11; return &t.gaps_rs_v1;
        case ACC_RS_ARCS: n = 7; k = 5; return &t.arcs_rs;
    }
    return nullptr;
}

}  // namespace

extern "C" acc_status acc_rs_shape(acc_rs_code code, int32_t* n, int32_t* k) {
    int nn = 0, kk = 0;
    if (rs_for(code, nn, kk) == nullptr || n == nullptr || k == nullptr) return ACC_E_INVALID_ARGUMENT;
    *n = nn;
    *k = kk;
    return ACC_OK;
}

extern "C" acc_status acc_rs_encode(acc_rs_code code, const uint8_t* data, uint8_t* codeword, acc_error* error) {
    int n = 0, k = 0;
    const ReedSolomon* rs = rs_for(code, n, k);
    if (rs == nullptr || data == nullptr || codeword == nullptr) return report(fail(ACC_E_INVALID_ARGUMENT, "unknown code or NULL buffer"), error);
    int limit = code == ACC_RS_METADATA ? 15 : 255;
    for (int i = 0; i < k; ++i)
        if (data[i] > limit) return report(fail(ACC_E_INVALID_ARGUMENT, "symbol out of range for the field", i, data[i]), error);
    std::memmove(codeword, data, static_cast<std::size_t>(k));
    rs->encode(codeword, k, codeword + k);
    return report_ok(error);
}

extern "C" acc_status acc_rs_decode(acc_rs_code code, uint8_t* codeword, const int32_t* erasures, int32_t erasure_count,
                                    int32_t* corrected, acc_error* error) {
    int n = 0, k = 0;
    const ReedSolomon* rs = rs_for(code, n, k);
    if (rs == nullptr || codeword == nullptr || (erasures == nullptr && erasure_count > 0))
        return report(fail(ACC_E_INVALID_ARGUMENT, "unknown code or NULL buffer"), error);
    int limit = code == ACC_RS_METADATA ? 15 : 255;
    for (int i = 0; i < n; ++i)
        if (codeword[i] > limit) return report(fail(ACC_E_INVALID_ARGUMENT, "symbol out of range for the field", i, codeword[i]), error);
    if (erasure_count < 0 || erasure_count > n - k)
        return report(fail(ACC_E_UNCORRECTABLE, "more erasures than parity symbols", -1, erasure_count), error);
    int positions[32];
    for (int e = 0; e < erasure_count; ++e) {
        if (erasures[e] < 0 || erasures[e] >= n) return report(fail(ACC_E_INVALID_ARGUMENT, "erasure position outside the word", e, erasures[e]), error);
        for (int f = 0; f < e; ++f)
            if (erasures[f] == erasures[e]) return report(fail(ACC_E_INVALID_ARGUMENT, "repeated erasure position", e, erasures[e]), error);
        positions[e] = erasures[e];
    }
    RsDecodeOutcome r = rs->decode(codeword, n, positions, erasure_count);
    if (!r.ok) return report(fail(ACC_E_UNCORRECTABLE, "the word is not correctable"), error);
    if (corrected != nullptr) *corrected = r.corrected;
    return report_ok(error);
}

extern "C" void acc_format_tables_info(double* build_milliseconds, size_t* bytes) {
    const FormatTables& t = tables();
    if (build_milliseconds != nullptr) *build_milliseconds = t.build_milliseconds;
    if (bytes != nullptr) *bytes = t.memory_bytes();
}
