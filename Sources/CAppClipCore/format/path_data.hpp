// SVG path data: a tolerant, bounded parser (hostile input gets an error, never a
// crash) that yields commands, and a flattener that turns them into polygons.
#pragma once
#include <string>
#include <vector>

#include "status.hpp"

namespace appclip {

struct Point {
    double x = 0, y = 0;
};

// One absolute segment. Arcs keep their SVG parameters; curves their controls.
struct PathSegment {
    enum Kind { kMove, kLine, kCubic, kQuadratic, kArc, kClose } kind = kMove;
    Point to;
    Point c1, c2;                     // curve controls
    double rx = 0, ry = 0, rotation = 0;
    bool large_arc = false, sweep = false;
    Point from;                       // current point before the segment
};

// Parses `d`; numbers must be finite and within ±1e6.
Result<std::vector<PathSegment>> parse_path_data(const std::string& d);

// Closed polygons approximating the path (one per subpath), with `tolerance` in
// path units.
std::vector<std::vector<Point>> flatten_path(const std::vector<PathSegment>& path, double tolerance);

// An affine map [a c e; b d f] as in SVG's matrix(a b c d e f).
struct Affine {
    double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
    Point apply(Point p) const { return Point{a * p.x + c * p.y + e, b * p.x + d * p.y + f}; }
    Affine then(const Affine& next) const;  // this first, then next
};

// Parses an SVG transform list (matrix, translate, scale, rotate, skewX, skewY).
Result<Affine> parse_transform(const std::string& text);

}  // namespace appclip
