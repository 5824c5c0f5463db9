// URL → at most 128 bits, as Apple's generator does: every legal form is tried
// and the shortest kept (ties: host format 0, 1, 2; non-template; combined).
#include <vector>

#include "url.hpp"
#include "url_forms.hpp"

namespace appclip {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        std::size_t end = text.find(separator, start);
        if (end == std::string::npos) {
            parts.push_back(text.substr(start));
            return parts;
        }
        parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
}

// Host formats: '0' Huffman TLD, '10' fixed 8-bit TLD, '11' whole host.
BitWriter encode_host(const FormatTables& t, const UrlParts& parts) {
    const std::string terminator = parts.has_payload() ? "|" : "";
    BitWriter best;
    bool found = false;
    auto consider = [&](const BitWriter& candidate) {
        if (!found || candidate.size() < best.size()) {
            best = candidate;
            found = true;
        }
    };
    std::size_t dot = parts.host.rfind('.');
    if (dot != std::string::npos) {
        std::string domain = parts.host.substr(0, dot) + terminator;
        std::string tld = parts.host.substr(dot);
        int h = t.huffman_tld_index(tld);
        if (h >= 0) {
            BitWriter w;
            w.put(false);
            std::uint32_t code = t.huffman_tld_codes[static_cast<std::size_t>(h)];
            w.put(code_bits(code), code_length(code));
            if (t.host.encode(domain, ContextCoder::kRoot, w)) consider(w);
        }
        int f = t.fixed_tld_index(tld);
        if (f > 0) {
            BitWriter w;
            w.put(0b10, 2);
            w.put(static_cast<std::uint64_t>(f), 8);
            if (t.host.encode(domain, ContextCoder::kRoot, w)) consider(w);
        }
    }
    BitWriter w;
    w.put(0b11, 2);
    if (t.host.encode(parts.host + terminator, ContextCoder::kRoot, w)) consider(w);
    return best;  // the host alphabet covers every valid host character
}

// Template family: optional wordbook path word, then values of p, p1, p2, ...
bool encode_template(const FormatTables& t, const UrlParts& parts, BitWriter& out) {
    if (!parts.fragment.empty()) return false;
    std::vector<std::string> words;
    for (auto& segment : split(parts.path, '/'))
        if (!segment.empty()) words.push_back(segment);
    if (words.size() > 1) return false;
    if (parts.path.size() >= 2 && parts.path.back() == '/') return false;
    int word = -1;
    if (words.size() == 1) {
        word = t.wordbook_index(words[0]);
        if (word < 0 || word > 255) return false;
    }
    std::vector<std::string> values;
    if (!parts.query.empty()) {
        if (parts.query.back() == '&') return false;
        for (auto& component : split(parts.query, '&')) {
            if (component.empty()) continue;
            std::size_t eq = component.find('=');
            if (eq == std::string::npos) return false;
            std::string expected = values.empty() ? "p" : "p" + std::to_string(values.size());
            if (component.compare(0, eq, expected) != 0 || eq != expected.size()) return false;
            values.push_back(component.substr(eq + 1));
        }
    }
    if (word < 0 && values.empty()) return false;  // nothing the template could carry
    if (word >= 0) {
        out.put(false);
        out.put(static_cast<std::uint64_t>(word), 8);
    }
    if (!values.empty()) {
        out.put(true);
        int equals = t.spq.start_after('=');
        for (std::size_t i = 0; i < values.size(); ++i)
            if (!encode_value(t, values[i], false, equals, i + 1 < values.size(), out)) return false;
    }
    return true;
}

// Segmented: typed path items, then typed key=value items. No fragment.
bool encode_segmented(const FormatTables& t, const UrlParts& parts, BitWriter& out) {
    if (!parts.fragment.empty()) return false;
    std::string path = parts.path;
    if (!path.empty() && path[0] == '/') path.erase(0, 1);
    std::vector<std::string> components;
    for (auto& segment : split(path, '/'))
        if (!segment.empty()) components.push_back(segment);
    bool slash_item = components.empty() || (!parts.path.empty() && parts.path.back() == '/');
    bool has_query = !parts.query.empty();

    for (std::size_t i = 0; i < components.size(); ++i) {
        bool more = i + 1 < components.size() || slash_item || has_query;
        out.put(false);
        if (!encode_value(t, components[i], true, ContextCoder::kRoot, more, out)) return false;
    }
    if (slash_item) out.put(0b10, 2);
    if (!has_query) return true;
    out.put(0b11, 2);

    auto items = split(parts.query, '&');
    int key_context = t.spq.start_after('?');
    int value_context = t.spq.start_after('=');
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& item = items[i];
        std::size_t eq = item.find('=');
        if (eq == std::string::npos) return false;  // bare keys (and empty items) need combined mode
        std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        bool more = i + 1 < items.size();
        const std::string tail = more ? "|" : "";
        BitWriter best;
        bool found = false;
        auto consider = [&](const BitWriter& w) {
            if (!found || w.size() < best.size()) {
                best = w;
                found = true;
            }
        };
        {
            BitWriter w;
            w.put(kSpqText, 2);
            if (t.spq.encode(key + "|", key_context, w) && t.spq.encode(value + tail, value_context, w)) consider(w);
        }
        if (decimal_is_canonical(value)) {
            BitWriter w;
            w.put(kDecimal, 2);
            decimal_to_leb128_bits(value, w);
            if (t.spq.encode(key + tail, key_context, w)) consider(w);
        }
        {
            BitWriter w;
            w.put(kFixed6, 2);
            if (t.spq.encode(key + "|", key_context, w) && encode_fixed6(t, value, more, w)) consider(w);
        }
        if (!found) return false;
        out.append(best);
    }
    return true;
}

// Combined: path, ?query, #fragment as one CPQ string, minus one leading slash.
bool encode_combined(const FormatTables& t, const UrlParts& parts, BitWriter& out) {
    std::string text = parts.path;
    if (!parts.query.empty()) text += "?" + parts.query;
    if (!parts.fragment.empty()) text += "#" + parts.fragment;
    if (!text.empty() && text[0] == '/' && (text.size() == 1 || text[1] != '#')) text.erase(0, 1);
    return t.cpq.encode(text, ContextCoder::kRoot, out);
}

}  // namespace

Result<CompressedUrl> compress_url(const std::string& url) {
    auto parsed = parse_url(url);
    if (!parsed.ok()) return parsed.failure();
    const UrlParts& parts = parsed.value();
    const FormatTables& t = tables();

    BitWriter payload;
    bool template_type = false;
    if (parts.has_payload()) {
        BitWriter combined, segmented, templated;
        combined.put(false);
        bool have_combined = encode_combined(t, parts, combined);
        segmented.put(true);
        bool have_segmented = encode_segmented(t, parts, segmented);
        bool have_template = encode_template(t, parts, templated);
        if (!have_combined && !have_segmented && !have_template)
            return fail(ACC_E_URL_CHARACTER, "the path, query or fragment has characters no coder can encode");
        BitWriter non_template;
        bool have_non_template = have_combined || have_segmented;
        if (have_combined && (!have_segmented || combined.size() <= segmented.size())) non_template = combined;
        else if (have_segmented) non_template = segmented;
        if (have_template && (!have_non_template || templated.size() < non_template.size())) {
            payload = templated;
            template_type = true;
        } else {
            payload = non_template;
        }
    }

    BitWriter raw;
    raw.put(true);  // begin marker
    raw.put(template_type);
    raw.put(parts.appclip_subdomain);
    raw.append(encode_host(t, parts));
    raw.append(payload);
    int bits = static_cast<int>(raw.size());
    if (bits > 128)
        return fail(ACC_E_URL_TOO_LONG,
                    "the compressed URL needs " + std::to_string(bits) + " bits; an App Clip Code holds 128", -1, bits);

    CompressedUrl result;
    result.bit_count = bits;
    int offset = 128 - bits;  // left-padded with zeros
    for (int i = 0; i < bits; ++i)
        if (raw.bits()[static_cast<std::size_t>(i)])
            result.payload[static_cast<std::size_t>((offset + i) >> 3)] |= static_cast<std::uint8_t>(0x80u >> ((offset + i) & 7));
    return result;
}

}  // namespace appclip
