// Arbitrary-size decimal numbers as unsigned LEB128 (low 7-bit groups first, each
// byte written MSB-first), the URL coders' numeric form.
#include <algorithm>
#include <cstdio>
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
    // Fixed arrays, not vectors: URL decompression runs for every code a frame decodes.
    constexpr std::size_t kMaxGroups = 20;   // 140 bits: past any 128-bit payload
    std::uint32_t groups[kMaxGroups];
    std::size_t group_count = 0;
    for (;;) {
        std::uint32_t byte = 0;
        if (!in.read(8, byte)) return false;
        groups[group_count++] = byte & 0x7F;
        if ((byte & 0x80) == 0) break;
        if (group_count > 19) return false;  // more than 128 bits of number
    }
    // A final zero group after others would be a non-canonical encoding.
    if (group_count > 1 && groups[group_count - 1] == 0) return false;
    // value = sum groups[i] * 128^i, accumulated in base 10^9 limbs (least significant first):
    // 20 groups of 7 bits make at most 43 decimal digits, 5 limbs.
    std::uint64_t limbs[6] = {0};
    std::size_t limb_count = 1;
    for (std::size_t g = group_count; g-- > 0;) {
        std::uint64_t carry = groups[g];
        for (std::size_t l = 0; l < limb_count; ++l) {
            std::uint64_t v = limbs[l] * 128 + carry;
            limbs[l] = v % 1000000000ull;
            carry = v / 1000000000ull;
        }
        while (carry != 0) {
            limbs[limb_count++] = carry % 1000000000ull;
            carry /= 1000000000ull;
        }
    }
    char part[24];
    std::snprintf(part, sizeof part, "%llu", static_cast<unsigned long long>(limbs[limb_count - 1]));
    digits = part;
    for (std::size_t l = limb_count - 1; l-- > 0;) {
        std::snprintf(part, sizeof part, "%09llu", static_cast<unsigned long long>(limbs[l]));
        digits += part;
    }
    return true;
}

}  // namespace appclip
