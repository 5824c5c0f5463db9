// Raw facts of the App Clip Code format, compiled in (see tools/gen_tables.py).
// format_tables.hpp builds the structures the codec uses from these.
#pragma once
#include <cstddef>
#include <cstdint>

namespace appclip::data {

struct HuffmanTld { const char* tld; unsigned frequency; };
struct FixedTld { const char* tld; unsigned index; };
struct RingGeometry { double radius; double rotation_deg; int positions; double half_gap_deg; };
struct Geometry {
    double viewbox, center_x, center_y, background_radius, stroke_width;
    RingGeometry rings[5];
};
struct VersionParameters { int gaps_data, gaps_parity, arcs_data, arcs_parity, total_data; };
struct FieldParameters { unsigned primitive; int first_consecutive_root; };
struct Palette { std::uint32_t foreground, background, third; };

extern const unsigned char* const trie_h;
extern const std::size_t trie_h_size;
extern const unsigned char* const trie_spq;
extern const std::size_t trie_spq_size;
extern const unsigned char* const trie_cpq;
extern const std::size_t trie_cpq_size;

extern const char* const alphabet_host;
extern const char* const alphabet_spq;
extern const char* const alphabet_cpq;
extern const char* const alphabet_fixed6;

extern const HuffmanTld huffman_tlds[];
extern const std::size_t huffman_tld_count;
extern const FixedTld fixed_tlds[];
extern const std::size_t fixed_tld_count;
extern const char* const path_wordbook[];
extern const std::size_t path_wordbook_count;

extern const unsigned char gaps_bits_order_lut[128];
extern const unsigned char template_byte;
extern const Geometry geometry;
extern const VersionParameters version_parameters[2];
extern const FieldParameters gf16;
extern const FieldParameters gf256;
extern const Palette templates[];
extern const std::size_t template_count;

extern const char* const camera_logo_transform;
extern const char* const camera_logo_paths[];
extern const std::size_t camera_logo_path_count;
extern const char* const nfc_logo_transform;
extern const char* const nfc_logo_outer;
extern const char* const nfc_logo_screen;

}  // namespace appclip::data
