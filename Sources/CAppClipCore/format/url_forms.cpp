#include "url_forms.hpp"

#include "url.hpp"

namespace appclip {

bool encode_fixed6(const FormatTables& t, const std::string& text, bool terminated, BitWriter& out) {
    for (char c : text) {
        int i = t.fixed6_index[static_cast<unsigned char>(c)];
        if (i < 0 || c == '|') return false;
        out.put(static_cast<std::uint64_t>(i), 6);
    }
    if (terminated) out.put(static_cast<std::uint64_t>(t.fixed6_index[static_cast<unsigned char>('|')]), 6);
    return true;
}

bool encode_value(const FormatTables& t, const std::string& value, bool allow_wordbook, int spq_context,
                  bool terminated, BitWriter& out) {
    BitWriter best;
    bool found = false;
    auto consider = [&](BitWriter& candidate) {
        if (!found || candidate.size() < best.size()) {
            best = candidate;
            found = true;
        }
    };
    {
        BitWriter w;
        w.put(kSpqText, 2);
        if (t.spq.encode(terminated ? value + "|" : value, spq_context, w)) consider(w);
    }
    if (decimal_is_canonical(value)) {
        BitWriter w;
        w.put(kDecimal, 2);
        decimal_to_leb128_bits(value, w);
        consider(w);
    }
    {
        BitWriter w;
        w.put(kFixed6, 2);
        if (encode_fixed6(t, value, terminated, w)) consider(w);
    }
    if (allow_wordbook) {
        int index = t.wordbook_index(value);
        if (index >= 0 && index < 256) {
            BitWriter w;
            w.put(kWordbook, 2);
            w.put(static_cast<std::uint64_t>(index), 8);
            consider(w);
        }
    }
    if (found) out.append(best);
    return found;
}

bool decode_value(const FormatTables& t, int type, BitReader& in, int spq_context, std::string& value,
                  bool& terminated) {
    terminated = false;
    value.clear();
    switch (type) {
        case kSpqText:
            return t.spq.decode(in, spq_context, '|', value, terminated);
        case kDecimal:
            return leb128_bits_to_decimal(in, value);
        case kFixed6:
            while (!in.at_end()) {
                std::uint32_t i = 0;
                if (!in.read(6, i)) return false;  // bits end inside a symbol
                char c = t.fixed6[i];
                if (c == '|') {
                    terminated = true;
                    return true;
                }
                value.push_back(c);
            }
            return true;
        case kWordbook: {
            std::uint32_t i = 0;
            if (!in.read(8, i) || i >= t.wordbook.size()) return false;
            value = t.wordbook[i];
            return true;
        }
        default:
            return false;
    }
}

}  // namespace appclip
