// Arbitrary-size decimal numbers as unsigned LEB128 (low 7-bit groups first, each
// byte written MSB-first), the URL coders' numeric form.
#include <algorithm>
#include <vector>

#include "url.hpp"

namespace appclip {

bool decimal_is_canonical(const std::string& digits) {
    if (digits.empty() || digits.size() > 40) return false;  // 128 bits hold < 40 digits
    for (char c : digits)
        if (c < '0' || c > '9') return false;
    return digits.size() == 1 || digits[0] != '0';  // "007" would come back as "7"
}

void decimal_to_leb128_bits(const std::string& digits, BitWriter& out) {
    std::vector<int> number;  // decimal digits, most significant first
    for (char c : digits) number.push_back(c - '0');
    do {
        // Divide by 128: the remainder is the next 7-bit group.
        int remainder = 0;
        std::vector<int> quotient;
        for (int d : number) {
            int value = remainder * 10 + d;
            int q = value / 128;
            remainder = value % 128;
            if (!quotient.empty() || q != 0) quotient.push_back(q);
        }
        number.swap(quotient);
        bool more = !number.empty();
        out.put(static_cast<std::uint64_t>((more ? 0x80 : 0) | remainder), 8);
    } while (!number.empty());
}

bool leb128_bits_to_decimal(BitReader& in, std::string& digits) {
    std::vector<std::uint32_t> groups;
    for (;;) {
        std::uint32_t byte = 0;
        if (!in.read(8, byte)) return false;
        groups.push_back(byte & 0x7F);
        if ((byte & 0x80) == 0) break;
        if (groups.size() > 19) return false;  // more than 128 bits of number
    }
    // A final zero group after others would be a non-canonical encoding.
    if (groups.size() > 1 && groups.back() == 0) return false;
    // value = sum groups[i] * 128^i, accumulated in base 10^9 limbs (least significant first).
    std::vector<std::uint64_t> limbs(1, 0);
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
        std::uint64_t carry = *g;
        for (auto& limb : limbs) {
            std::uint64_t v = limb * 128 + carry;
            limb = v % 1000000000ull;
            carry = v / 1000000000ull;
        }
        while (carry != 0) {
            limbs.push_back(carry % 1000000000ull);
            carry /= 1000000000ull;
        }
    }
    digits = std::to_string(limbs.back());
    for (auto l = limbs.rbegin() + 1; l != limbs.rend(); ++l) {
        std::string part = std::to_string(*l);
        digits.append(9 - part.size(), '0');
        digits += part;
    }
    return true;
}

}  // namespace appclip
