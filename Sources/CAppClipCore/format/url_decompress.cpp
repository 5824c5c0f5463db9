// 128 payload bits → URL in Apple's canonical form. Strict: any bit pattern the
// compressor could not have produced is refused rather than guessed at.
#include <cstdio>

#include "url.hpp"
#include "url_forms.hpp"

namespace appclip {

namespace {

// Why the bits are not a compressed URL. Malformed payloads are rare (the codec's checks
// come first), so the sentence is composed.
Failure invalid(const std::string& why) { return fail(ACC_E_PAYLOAD_INVALID, "the payload is not a compressed URL: " + why); }

}  // namespace

// The host; `more` tells whether a '|' said that a path, query or fragment follows.
Failure UrlDecompressor::host(BitReader& in, bool& more) {
    const FormatTables& t = tables();
    int first = in.bit();
    if (first < 0) return invalid("it ends before the host");
    const std::string* tld = nullptr;
    bool whole_host = false;
    if (first == 0) {
        int i = huffman_decode(t.huffman_tld_tree.data(), static_cast<int>(t.huffman_tld_names.size()), in);
        if (i < 0) return invalid("it ends inside the TLD code");
        tld = &t.huffman_tld_names[static_cast<std::size_t>(i)];
    } else {
        int second = in.bit();
        if (second < 0) return invalid("it ends inside the host format");
        if (second == 0) {
            std::uint32_t index = 0;
            if (!in.read(8, index)) return invalid("it ends inside the TLD index");
            tld = &t.fixed_tld_by_index[index];
            if (tld->empty()) return invalid("TLD index " + std::to_string(index) + " is not in the table");
        } else {
            whole_host = true;
        }
    }
    text_.clear();
    if (!t.host.decode(in, ContextCoder::kRoot, '|', text_, more)) return invalid("it ends inside a host character");
    if (whole_host && text_.empty()) return invalid("the host is empty");
    url_ += text_;
    if (tld != nullptr) url_ += *tld;
    return {};
}

Failure UrlDecompressor::template_path(BitReader& in) {
    const FormatTables& t = tables();
    url_ += '/';
    int bit = in.bit();
    if (bit < 0) return invalid("the template is empty");
    if (bit == 0) {
        std::uint32_t index = 0;
        if (!in.read(8, index) || index >= t.wordbook.size()) return invalid("the template's path word is not in the wordbook");
        url_ += t.wordbook[index];
        if (in.at_end()) return {};
        if (in.bit() != 1) return invalid("a template path word is followed by something other than a query");
    }
    url_ += '?';
    int equals = t.spq.start_after('=');
    for (int n = 0;; ++n) {
        std::uint32_t type = 0;
        if (!in.read(2, type) || type == kWordbook) return invalid("bad template query value type");
        bool more = false;
        if (!decode_value(t, static_cast<int>(type), in, equals, value_, more)) return invalid("a template query value is cut short");
        if (n > 0) url_ += '&';
        url_ += 'p';
        if (n > 0) {
            char number[16];
            std::snprintf(number, sizeof number, "%d", n);
            url_ += number;
        }
        url_ += '=';
        url_ += value_;
        if (type == kDecimal) more = !in.at_end();
        if (!more) {
            if (!in.at_end()) return invalid("bits follow the last template value");
            return {};
        }
    }
}

Failure UrlDecompressor::segmented_path(BitReader& in) {
    const FormatTables& t = tables();
    const std::size_t path_start = url_.size();
    bool slash = false;
    bool query = false;
    while (!in.at_end()) {
        int b = in.bit();
        if (b == 0) {
            if (slash) return invalid("a path item follows the trailing slash");
            std::uint32_t type = 0;
            if (!in.read(2, type)) return invalid("a path item is cut short");
            bool more = false;
            if (!decode_value(t, static_cast<int>(type), in, ContextCoder::kRoot, value_, more)) return invalid("a path item is cut short");
            if (value_.empty()) return invalid("an empty path item");
            url_ += '/';
            url_ += value_;
            bool text_form = type == kSpqText || type == kFixed6;
            if (text_form && !more) {
                if (!in.at_end()) return invalid("bits follow an unterminated path item");
                break;
            }
            if (text_form && more && in.at_end()) return invalid("a terminated path item is followed by nothing");
            continue;
        }
        int c = in.bit();
        if (c < 0) return invalid("an item marker is cut short");
        if (c == 0) {
            if (slash) return invalid("two trailing slashes");
            slash = true;
            continue;
        }
        query = true;
        break;
    }
    if (slash || url_.size() == path_start) url_ += '/';
    if (!query) return {};

    url_ += '?';
    int key_context = t.spq.start_after('?');
    int value_context = t.spq.start_after('=');
    for (int n = 0;; ++n) {
        std::uint32_t type = 0;
        if (!in.read(2, type) || type == kWordbook) return invalid("bad query item type");
        key_.clear();
        value_.clear();
        bool more = false, key_done = false;
        if (type == kDecimal) {
            if (!leb128_bits_to_decimal(in, value_)) return invalid("a query number is cut short");
            if (!t.spq.decode(in, key_context, '|', key_, more)) return invalid("a query key is cut short");
        } else {
            if (!t.spq.decode(in, key_context, '|', key_, key_done) || !key_done) return invalid("a query key is not terminated");
            if (!decode_value(t, static_cast<int>(type), in, value_context, value_, more)) return invalid("a query value is cut short");
        }
        if (n > 0) url_ += '&';
        url_ += key_;
        url_ += '=';
        url_ += value_;
        if (!more) {
            if (!in.at_end()) return invalid("bits follow the last query item");
            return {};
        }
        if (in.at_end()) return invalid("a terminated query item is followed by nothing");
    }
}

Failure UrlDecompressor::combined_path(BitReader& in) {
    const FormatTables& t = tables();
    text_.clear();
    bool terminated = false;
    if (!t.cpq.decode(in, ContextCoder::kRoot, '\0', text_, terminated)) return invalid("it ends inside a path character");
    // The compressor removed one leading slash unless a '#' came right after it.
    const bool keeps_text = (!text_.empty() && text_[0] == '#') || (text_.size() >= 2 && text_[0] == '/' && text_[1] == '#');
    if (!keeps_text) url_ += '/';
    url_ += text_;
    return {};
}

Failure UrlDecompressor::decompress(const std::uint8_t* payload16) {
    url_.clear();
    int start = 0;
    while (start < 128 && ((payload16[start >> 3] >> (7 - (start & 7))) & 1) == 0) ++start;
    if (start >= 124) return invalid("no begin marker");
    BitReader in(payload16, start + 1, 128);
    int template_type = in.bit();
    int subdomain = in.bit();
    bool more = false;
    url_ += "https://";
    if (subdomain == 1) url_ += "appclip.";
    if (Failure f = host(in, more); f.status != ACC_OK) return f;
    if (!more) {
        if (template_type == 1) return invalid("a template URL without a path or query");
        return {};
    }
    if (template_type == 1) return template_path(in);
    int selector = in.bit();
    if (selector < 0) return invalid("it ends before the path form");
    return selector == 0 ? combined_path(in) : segmented_path(in);
}

Result<std::string> decompress_url(const std::uint8_t* payload16) {
    UrlDecompressor decompressor;
    Failure f = decompressor.decompress(payload16);
    if (f.status != ACC_OK) return f;
    return decompressor.url();
}

}  // namespace appclip
