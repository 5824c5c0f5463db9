// 128 payload bits → URL in Apple's canonical form. Strict: any bit pattern the
// compressor could not have produced is refused rather than guessed at.
#include "url.hpp"
#include "url_forms.hpp"

namespace appclip {

namespace {

Failure invalid(const std::string& why) { return fail(ACC_E_PAYLOAD_INVALID, "the payload is not a compressed URL: " + why); }

// The host and whether a '|' said that a path, query or fragment follows.
Result<std::string> decode_host(const FormatTables& t, BitReader& in, bool& more) {
    int first = in.bit();
    if (first < 0) return invalid("it ends before the host");
    std::string tld;
    bool whole_host = false;
    if (first == 0) {
        int i = huffman_decode(t.huffman_tld_tree.data(), static_cast<int>(t.huffman_tld_names.size()), in);
        if (i < 0) return invalid("it ends inside the TLD code");
        tld = t.huffman_tld_names[static_cast<std::size_t>(i)];
    } else {
        int second = in.bit();
        if (second < 0) return invalid("it ends inside the host format");
        if (second == 0) {
            std::uint32_t index = 0;
            if (!in.read(8, index)) return invalid("it ends inside the TLD index");
            tld = t.fixed_tld_by_index[index];
            if (tld.empty()) return invalid("TLD index " + std::to_string(index) + " is not in the table");
        } else {
            whole_host = true;
        }
    }
    std::string name;
    if (!t.host.decode(in, ContextCoder::kRoot, '|', name, more)) return invalid("it ends inside a host character");
    if (whole_host && name.empty()) return invalid("the host is empty");
    return name + tld;
}

Result<std::string> decode_template(const FormatTables& t, BitReader& in) {
    std::string out = "/";
    int bit = in.bit();
    if (bit < 0) return invalid("the template is empty");
    if (bit == 0) {
        std::uint32_t index = 0;
        if (!in.read(8, index) || index >= t.wordbook.size()) return invalid("the template's path word is not in the wordbook");
        out += t.wordbook[index];
        if (in.at_end()) return out;
        if (in.bit() != 1) return invalid("a template path word is followed by something other than a query");
    }
    out += "?";
    int equals = t.spq.start_after('=');
    for (int n = 0;; ++n) {
        std::uint32_t type = 0;
        if (!in.read(2, type) || type == kWordbook) return invalid("bad template query value type");
        std::string value;
        bool more = false;
        if (!decode_value(t, static_cast<int>(type), in, equals, value, more)) return invalid("a template query value is cut short");
        if (n > 0) out += "&";
        out += n == 0 ? "p=" : "p" + std::to_string(n) + "=";
        out += value;
        if (type == kDecimal) more = !in.at_end();
        if (!more) {
            if (!in.at_end()) return invalid("bits follow the last template value");
            return out;
        }
    }
}

Result<std::string> decode_segmented(const FormatTables& t, BitReader& in) {
    std::string path;
    bool slash = false;
    bool query = false;
    while (!in.at_end()) {
        int b = in.bit();
        if (b == 0) {
            if (slash) return invalid("a path item follows the trailing slash");
            std::uint32_t type = 0;
            if (!in.read(2, type)) return invalid("a path item is cut short");
            std::string value;
            bool more = false;
            if (!decode_value(t, static_cast<int>(type), in, ContextCoder::kRoot, value, more)) return invalid("a path item is cut short");
            if (value.empty()) return invalid("an empty path item");
            path += "/" + value;
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
    if (slash || path.empty()) path += "/";
    if (!query) return path;

    std::string out = path + "?";
    int key_context = t.spq.start_after('?');
    int value_context = t.spq.start_after('=');
    for (int n = 0;; ++n) {
        std::uint32_t type = 0;
        if (!in.read(2, type) || type == kWordbook) return invalid("bad query item type");
        std::string key, value;
        bool more = false, key_done = false;
        if (type == kDecimal) {
            if (!leb128_bits_to_decimal(in, value)) return invalid("a query number is cut short");
            if (!t.spq.decode(in, key_context, '|', key, more)) return invalid("a query key is cut short");
        } else {
            if (!t.spq.decode(in, key_context, '|', key, key_done) || !key_done) return invalid("a query key is not terminated");
            if (!decode_value(t, static_cast<int>(type), in, value_context, value, more)) return invalid("a query value is cut short");
        }
        if (n > 0) out += "&";
        out += key + "=" + value;
        if (!more) {
            if (!in.at_end()) return invalid("bits follow the last query item");
            return out;
        }
        if (in.at_end()) return invalid("a terminated query item is followed by nothing");
    }
}

Result<std::string> decode_combined(const FormatTables& t, BitReader& in) {
    std::string text;
    bool terminated = false;
    if (!t.cpq.decode(in, ContextCoder::kRoot, '\0', text, terminated)) return invalid("it ends inside a path character");
    // The compressor removed one leading slash unless a '#' came right after it.
    if (!text.empty() && text[0] == '#') return text;
    if (text.size() >= 2 && text[0] == '/' && text[1] == '#') return text;
    return "/" + text;
}

}  // namespace

Result<std::string> decompress_url(const std::uint8_t* payload16) {
    const FormatTables& t = tables();
    int start = 0;
    while (start < 128 && ((payload16[start >> 3] >> (7 - (start & 7))) & 1) == 0) ++start;
    if (start >= 124) return invalid("no begin marker");
    BitReader in(payload16, start + 1, 128);
    int template_type = in.bit();
    int subdomain = in.bit();
    bool more = false;
    auto host = decode_host(t, in, more);
    if (!host.ok()) return host.failure();
    std::string url = "https://";
    if (subdomain == 1) url += "appclip.";
    url += host.value();
    if (!more) {
        if (template_type == 1) return invalid("a template URL without a path or query");
        return url;
    }
    Result<std::string> rest = std::string();
    if (template_type == 1) {
        rest = decode_template(t, in);
    } else {
        int selector = in.bit();
        if (selector < 0) return invalid("it ends before the path form");
        rest = selector == 0 ? decode_combined(t, in) : decode_segmented(t, in);
    }
    if (!rest.ok()) return rest.failure();
    return url + rest.value();
}

}  // namespace appclip
