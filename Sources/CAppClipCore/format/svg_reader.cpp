// Reads an App Clip Code SVG back to ring observations from the arcs' geometry:
// where each arc starts and ends on its ring, and its stroke color. A small,
// bounded XML scanner: hostile or truncated input gets a typed error.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <vector>

#include "format_tables.hpp"
#include "path_data.hpp"
#include "svg.hpp"

namespace appclip {

namespace {

constexpr std::size_t kMaxSvgBytes = 16u << 20;
constexpr std::size_t kMaxDepth = 64;
constexpr double kPi = 3.14159265358979323846;

struct Tag {
    std::string name;
    std::map<std::string, std::string> attributes;
    bool closing = false;
    bool self_closing = false;
};

Failure malformed(const std::string& why, std::size_t at) {
    return fail(ACC_E_SVG_MALFORMED, "SVG: " + why + " at byte " + std::to_string(at), static_cast<int>(at));
}
Failure not_a_code(const std::string& why) { return fail(ACC_E_SVG_NOT_A_CODE, "SVG is not an App Clip Code: " + why); }

std::string decode_entities(const std::string& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == '&') {
            static const std::pair<const char*, char> entities[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
            bool done = false;
            for (auto& e : entities) {
                std::size_t n = std::char_traits<char>::length(e.first);
                if (v.compare(i, n, e.first) == 0) {
                    out.push_back(e.second);
                    i += n - 1;
                    done = true;
                    break;
                }
            }
            if (done) continue;
        }
        out.push_back(v[i]);
    }
    return out;
}

// Parses the tag starting at s[i] == '<'; leaves i after '>'.
Result<Tag> parse_tag(const std::string& s, std::size_t& i) {
    Tag tag;
    std::size_t start = i++;
    if (i < s.size() && s[i] == '/') {
        tag.closing = true;
        ++i;
    }
    std::size_t name_start = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == ':' || s[i] == '-' || s[i] == '_')) ++i;
    tag.name = s.substr(name_start, i - name_start);
    if (tag.name.empty()) return malformed("tag without a name", start);
    for (;;) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i >= s.size()) return malformed("unterminated tag <" + tag.name, start);
        if (s[i] == '>') {
            ++i;
            return tag;
        }
        if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '>') {
            tag.self_closing = true;
            i += 2;
            return tag;
        }
        std::size_t attr_start = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != '=' && s[i] != '>' && s[i] != '/') ++i;
        std::string name = s.substr(attr_start, i - attr_start);
        if (name.empty()) return malformed("bad attribute in <" + tag.name, i);
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i >= s.size() || s[i] != '=') return malformed("attribute '" + name + "' without a value", i);
        ++i;
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return malformed("unquoted attribute '" + name + "'", i);
        char quote = s[i++];
        std::size_t close = s.find(quote, i);
        if (close == std::string::npos) return malformed("unterminated attribute '" + name + "'", i);
        tag.attributes[name] = decode_entities(s.substr(i, close - i));
        i = close + 1;
    }
}

// A color from a style property or a presentation attribute: #rgb or #rrggbb.
bool parse_color(const std::string& text, std::uint32_t& rgb) {
    std::string v;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (v.empty() || v[0] != '#') return false;
    for (std::size_t k = 1; k < v.size(); ++k)
        if (!std::isxdigit(static_cast<unsigned char>(v[k]))) return false;
    if (v.size() == 7) {
        rgb = static_cast<std::uint32_t>(std::stoul(v.substr(1), nullptr, 16));
        return true;
    }
    if (v.size() == 4) {
        std::uint32_t r = static_cast<std::uint32_t>(std::stoul(v.substr(1, 1), nullptr, 16));
        std::uint32_t g = static_cast<std::uint32_t>(std::stoul(v.substr(2, 1), nullptr, 16));
        std::uint32_t b = static_cast<std::uint32_t>(std::stoul(v.substr(3, 1), nullptr, 16));
        rgb = (r * 17u << 16) | (g * 17u << 8) | (b * 17u);
        return true;
    }
    return false;
}

// The value of a paint property: style wins over the attribute, as in CSS.
std::string paint(const Tag& tag, const std::string& property) {
    auto style = tag.attributes.find("style");
    if (style != tag.attributes.end()) {
        const std::string& s = style->second;
        std::size_t at = 0;
        while (at < s.size()) {
            std::size_t end = s.find(';', at);
            if (end == std::string::npos) end = s.size();
            std::string decl = s.substr(at, end - at);
            std::size_t colon = decl.find(':');
            if (colon != std::string::npos) {
                std::string name = decl.substr(0, colon);
                name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }), name.end());
                if (name == property) return decl.substr(colon + 1);
            }
            at = end + 1;
        }
    }
    auto attribute = tag.attributes.find(property);
    return attribute == tag.attributes.end() ? std::string() : attribute->second;
}

struct ArcOnRing {
    int ring;
    double start_deg;  // covered from start to end going in +angle (clockwise, y down)
    double end_deg;
    std::uint32_t color;
};

double wrap360(double a) {
    a = std::fmod(a, 360.0);
    return a < 0 ? a + 360.0 : a;
}

}  // namespace

Result<acc_svg_code> read_svg(const std::string& svg) {
    if (svg.size() > kMaxSvgBytes) return fail(ACC_E_SVG_MALFORMED, "SVG larger than 16 MiB");
    const FormatTables& t = tables();

    struct Frame {
        std::string name;
        Affine transform;
        bool in_logo = false;
        std::string logo_type;
    };
    std::vector<Frame> stack{Frame{"", Affine{}, false, ""}};
    bool saw_svg = false;
    bool have_background = false;
    double center_x = 0, center_y = 0, scale = 1;  // code frame: center (400,400), radius 400
    std::uint32_t background = 0;
    std::vector<std::pair<std::vector<PathSegment>, Affine>> stroke_paths;
    std::vector<std::uint32_t> stroke_colors;
    bool logo_seen = false;
    std::string logo_type;
    int logo_paths = 0;
    std::uint32_t logo_fill = 0;
    bool logo_fill_known = false;

    std::size_t i = 0;
    while (i < svg.size()) {
        std::size_t lt = svg.find('<', i);
        if (lt == std::string::npos) break;
        i = lt;
        if (svg.compare(i, 4, "<!--") == 0) {
            std::size_t end = svg.find("-->", i + 4);
            if (end == std::string::npos) return malformed("unterminated comment", i);
            i = end + 3;
            continue;
        }
        if (svg.compare(i, 2, "<?") == 0 || svg.compare(i, 2, "<!") == 0) {
            std::size_t end = svg.find('>', i);
            if (end == std::string::npos) return malformed("unterminated declaration", i);
            i = end + 1;
            continue;
        }
        std::size_t tag_at = i;
        auto parsed = parse_tag(svg, i);
        if (!parsed.ok()) return parsed.failure();
        const Tag& tag = parsed.value();
        if (tag.closing) {
            if (stack.size() <= 1 || stack.back().name != tag.name) return malformed("mismatched </" + tag.name + ">", tag_at);
            stack.pop_back();
            continue;
        }
        Affine transform = stack.back().transform;
        auto tr = tag.attributes.find("transform");
        if (tr != tag.attributes.end()) {
            auto local = parse_transform(tr->second);
            if (!local.ok()) return local.failure();
            transform = local.value().then(transform);
        }
        bool in_logo = stack.back().in_logo;
        std::string type = stack.back().logo_type;
        if (tag.name == "svg") saw_svg = true;
        if (tag.name == "g") {
            auto id = tag.attributes.find("id");
            if (id != tag.attributes.end() && id->second == "Logo") {
                in_logo = true;
                logo_seen = true;
                auto lt_attr = tag.attributes.find("data-logo-type");
                type = lt_attr == tag.attributes.end() ? "" : lt_attr->second;
                logo_type = type;
            }
        } else if (tag.name == "circle" && !have_background) {
            double cx = 0, cy = 0, r = 0;
            try {
                cx = std::stod(tag.attributes.count("cx") ? tag.attributes.at("cx") : "0");
                cy = std::stod(tag.attributes.count("cy") ? tag.attributes.at("cy") : "0");
                r = std::stod(tag.attributes.count("r") ? tag.attributes.at("r") : "0");
            } catch (...) {
                return malformed("bad circle attributes", tag_at);
            }
            Point c = transform.apply(Point{cx, cy});
            double det = std::fabs(transform.a * transform.d - transform.b * transform.c);
            double radius = r * std::sqrt(det);
            if (!std::isfinite(radius) || radius <= 1e-6 || !std::isfinite(c.x) || !std::isfinite(c.y)) return not_a_code("the background circle is degenerate");
            if (!parse_color(paint(tag, "fill"), background)) return not_a_code("the background circle has no #rrggbb fill");
            center_x = c.x;
            center_y = c.y;
            scale = data::geometry.background_radius / radius;
            have_background = true;
        } else if (tag.name == "path") {
            auto d = tag.attributes.find("d");
            if (d == tag.attributes.end()) return malformed("path without d", tag_at);
            if (in_logo) {
                ++logo_paths;
                std::uint32_t fill = 0;
                if (!logo_fill_known && parse_color(paint(tag, "fill"), fill)) {
                    logo_fill = fill;
                    logo_fill_known = true;
                }
            } else {
                std::uint32_t stroke = 0;
                if (parse_color(paint(tag, "stroke"), stroke)) {
                    auto segments = parse_path_data(d->second);
                    if (!segments.ok()) return segments.failure();
                    stroke_paths.emplace_back(segments.value(), transform);
                    stroke_colors.push_back(stroke);
                }
            }
        }
        if (!tag.self_closing) {
            if (stack.size() >= kMaxDepth) return malformed("elements nested too deeply", tag_at);
            stack.push_back(Frame{tag.name, transform, in_logo, type});
        }
    }
    if (!saw_svg) return malformed("no <svg> element", 0);
    if (stack.size() != 1) return malformed("unclosed <" + stack.back().name + ">", svg.size());
    if (!have_background) return not_a_code("no background circle");
    if (stroke_paths.empty()) return not_a_code("no arcs");

    // Arcs in the code frame, assigned to rings by radius.
    std::vector<ArcOnRing> arcs;
    const double tolerance = data::geometry.stroke_width / 2;
    for (std::size_t k = 0; k < stroke_paths.size(); ++k) {
        const auto& segments = stroke_paths[k].first;
        const Affine& m = stroke_paths[k].second;
        bool mirrored = (m.a * m.d - m.b * m.c) < 0;
        if (segments.size() != 2 || segments[0].kind != PathSegment::kMove || segments[1].kind != PathSegment::kArc)
            return not_a_code("an arc path is not 'M … A …'");
        auto to_code = [&](Point p) {
            Point q = m.apply(p);
            return Point{(q.x - center_x) * scale, (q.y - center_y) * scale};
        };
        Point p0 = to_code(segments[1].from), p1 = to_code(segments[1].to);
        double r0 = std::hypot(p0.x, p0.y), r1 = std::hypot(p1.x, p1.y);
        int ring = -1;
        for (int r = 0; r < 5; ++r)
            if (std::fabs(r0 - t.rings[static_cast<std::size_t>(r)].radius) <= tolerance &&
                std::fabs(r1 - t.rings[static_cast<std::size_t>(r)].radius) <= tolerance)
                ring = r;
        if (ring < 0) return not_a_code("an arc is not on any ring");
        double a0 = std::atan2(p0.y, p0.x) * 180.0 / kPi, a1 = std::atan2(p1.y, p1.x) * 180.0 / kPi;
        bool positive = segments[1].sweep != mirrored;  // sweep 1 runs toward increasing angle
        arcs.push_back(positive ? ArcOnRing{ring, a0, a1, stroke_colors[k]} : ArcOnRing{ring, a1, a0, stroke_colors[k]});
    }

    // Two arc colors: the foreground is the logo's fill when there is a logo, else the
    // color of the first visible arc (the color stream starts with a 0 separator).
    std::vector<std::uint32_t> distinct;
    for (auto c : stroke_colors)
        if (std::find(distinct.begin(), distinct.end(), c) == distinct.end()) distinct.push_back(c);
    if (distinct.size() > 2) return not_a_code("arcs use more than two colors");

    acc_svg_code code;
    std::fill(std::begin(code.observation.p_arc_start), std::end(code.observation.p_arc_start), 0.5f);
    std::fill(std::begin(code.observation.p_third), std::end(code.observation.p_third), 0.5f);
    std::vector<int> cover(128, 0);
    std::vector<std::uint32_t> position_color(128, 0);
    for (const auto& arc : arcs) {
        const RingLayout& ring = t.rings[static_cast<std::size_t>(arc.ring)];
        double step = 360.0 / ring.positions;
        double from = wrap360(arc.start_deg - ring.rotation_deg - ring.half_gap_deg) / step;
        double to = wrap360(arc.end_deg - ring.rotation_deg + ring.half_gap_deg) / step;
        int p = static_cast<int>(std::lround(from)) % ring.positions;
        int q = static_cast<int>(std::lround(to)) % ring.positions;
        if (std::fabs(from - std::round(from)) > 0.2 || std::fabs(to - std::round(to)) > 0.2)
            return not_a_code("an arc does not start and end at ring positions");
        int span = (q - p + ring.positions) % ring.positions;
        if (span == 0) span = ring.positions;
        for (int s = 0; s < span; ++s) {
            int at = ring.first_bit + (p + s) % ring.positions;
            ++cover[static_cast<std::size_t>(at)];
            position_color[static_cast<std::size_t>(at)] = arc.color;
            code.observation.p_arc_start[at] = s == 0 ? 1.0f : 0.0f;
        }
    }
    std::uint32_t foreground = distinct[0];
    bool found_first = false;
    for (int at = 0; at < 128 && !found_first; ++at)
        if (cover[static_cast<std::size_t>(at)] == 1 && code.observation.p_arc_start[at] == 1.0f) {
            foreground = position_color[static_cast<std::size_t>(at)];
            found_first = true;
        }
    if (logo_fill_known && std::find(distinct.begin(), distinct.end(), logo_fill) != distinct.end()) foreground = logo_fill;
    std::uint32_t third = distinct.size() == 2 ? (distinct[0] == foreground ? distinct[1] : distinct[0]) : foreground;
    for (int at = 0; at < 128; ++at) {
        if (cover[static_cast<std::size_t>(at)] != 1) {
            code.observation.p_arc_start[at] = 0.5f;  // uncovered or overlapping: no evidence
            continue;
        }
        code.observation.p_third[at] = position_color[static_cast<std::size_t>(at)] == foreground ? 0.0f : 1.0f;
    }
    code.palette.foreground = foreground;
    code.palette.background = background;
    code.palette.third = distinct.size() == 2 ? third : acc_third_color(foreground, background);
    code.logo = ACC_LOGO_NONE;
    if (logo_seen && logo_paths > 0) {
        std::string lower;
        for (char c : logo_type) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        if (lower == "camera") code.logo = ACC_LOGO_CAMERA;
        else if (lower == "phone" || lower == "nfc") code.logo = ACC_LOGO_NFC;
        else code.logo = logo_paths == 2 ? ACC_LOGO_NFC : ACC_LOGO_CAMERA;
    }
    return code;
}

}  // namespace appclip
