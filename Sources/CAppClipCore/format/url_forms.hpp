// The pieces of a compressed URL shared by the compressor and the decompressor:
// item type codes and the text forms of path components and query values.
#pragma once
#include <string>

#include "bits.hpp"
#include "format_tables.hpp"

namespace appclip {

// 2-bit value types of segmented items and template query values.
enum ValueType : int { kSpqText = 0, kDecimal = 1, kFixed6 = 2, kWordbook = 3 };

// Appends the shortest encodable form of `value` among `allowed` types (ties go to
// the lower type code): the 2-bit type, then the value. SPQ text starts in
// `spq_context`; `terminated` appends '|' to text forms. False if none fits.
bool encode_value(const FormatTables& t, const std::string& value, bool allow_wordbook, int spq_context,
                  bool terminated, BitWriter& out);

// Reads one value of the given type. `terminated` reports whether a '|' ended it
// (text forms), `ok` false on malformed bits.
bool decode_value(const FormatTables& t, int type, BitReader& in, int spq_context, std::string& value,
                  bool& terminated);

bool encode_fixed6(const FormatTables& t, const std::string& text, bool terminated, BitWriter& out);

}  // namespace appclip
