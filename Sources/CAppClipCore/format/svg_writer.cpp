// Writes a code as SVG in the structure of Apple's generator.
#include <cmath>
#include <cstdio>
#include <string>

#include "drawing.hpp"
#include "format_tables.hpp"
#include "svg.hpp"

namespace appclip {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string format(const char* pattern, double a) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, a);
    return buffer;
}

std::string hex_color(std::uint32_t rgb) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%06x", rgb & 0xFFFFFFu);
    return buffer;
}

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out.push_back(c);
        }
    }
    return out;
}

}  // namespace

std::string write_svg(const Drawing& d, const std::string& url) {
    const FormatTables& t = tables();
    const double cx = data::geometry.center_x, cy = data::geometry.center_y;
    std::string s;
    s.reserve(32768);
    s += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
    s += "<svg data-design=\"Fingerprint\" data-payload=\"" + xml_escape(url) + "\" viewBox=\"0 0 800 800\" xmlns=\"http://www.w3.org/2000/svg\">\n";
    s += "    <title>App Clip Code</title>\n";
    s += "    <circle cx=\"" + format("%f", cx) + "\" cy=\"" + format("%f", cy) + "\" id=\"Background\" r=\"" +
         format("%f", data::geometry.background_radius) + "\" style=\"fill:" + hex_color(d.palette.background) + "\"/>\n";
    s += "    <g id=\"Markers\">\n";
    const std::string stroke = format("%f", data::geometry.stroke_width);
    for (int r = 0; r < 5; ++r) {
        const RingLayout& ring = t.rings[static_cast<std::size_t>(r)];
        s += "        <g name=\"ring-" + std::to_string(r + 1) + "\" transform=\"rotate(" + format("%g", ring.rotation_deg) + " " +
             format("%g", cx) + " " + format("%g", cy) + ")\">\n";
        for (const DrawnArc& arc : d.arcs) {
            if (arc.ring != r) continue;
            // Points in the ring group's own frame: the group's rotate() adds the rotation.
            double a0 = (arc.start_deg - ring.rotation_deg) * kPi / 180.0;
            double a1 = (arc.end_deg - ring.rotation_deg) * kPi / 180.0;
            double radius = ring.radius;
            bool large = arc.end_deg - arc.start_deg > 180.0;
            // Apple draws from the end point back to the start with sweep-flag 0.
            s += "            <path d=\"M " + format("%f", cx + radius * std::cos(a1)) + " " + format("%f", cy + radius * std::sin(a1)) +
                 " A " + format("%f", radius) + " " + format("%f", radius) + " 0 " + (large ? "1" : "0") + " 0 " +
                 format("%f", cx + radius * std::cos(a0)) + " " + format("%f", cy + radius * std::sin(a0)) + "\" data-color=\"" +
                 std::to_string(arc.color) + "\" style=\"fill:none;stroke:" + hex_color(arc.color ? d.palette.third : d.palette.foreground) +
                 ";stroke-linecap:round;stroke-miterlimit:10;stroke-width:" + stroke + "px\"/>\n";
        }
        s += "        </g>\n";
    }
    s += "    </g>\n";
    if (d.logo == ACC_LOGO_CAMERA) {
        s += std::string("    <g id=\"Logo\" data-logo-type=\"Camera\" transform=\"") + logo_transform(d.logo) + "\">\n";
        for (std::size_t i = 0; i < data::camera_logo_path_count; ++i)
            s += std::string("        <path d=\"") + data::camera_logo_paths[i] + "\" style=\"fill:" + hex_color(d.palette.foreground) + "\"/>\n";
        s += "    </g>\n";
    } else if (d.logo == ACC_LOGO_NFC) {
        s += std::string("    <g id=\"Logo\" data-logo-type=\"phone\" transform=\"") + logo_transform(d.logo) + "\">\n";
        s += std::string("        <path d=\"") + data::nfc_logo_outer + "\" style=\"fill:" + hex_color(d.palette.foreground) + "\"/>\n";
        s += std::string("        <path d=\"") + data::nfc_logo_screen + "\" style=\"fill:" + hex_color(d.palette.third) + "\"/>\n";
        s += "    </g>\n";
    }
    s += "</svg>\n";
    return s;
}

}  // namespace appclip
