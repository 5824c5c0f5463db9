#include "path_data.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace appclip {

namespace {

constexpr double kMaxCoordinate = 1e6;
constexpr std::size_t kMaxSegments = 100000;
constexpr double kPi = 3.14159265358979323846;

class NumberScanner {
public:
    explicit NumberScanner(const std::string& text) : s_(text) {}
    void skip_separators() {
        while (i_ < s_.size() && (std::isspace(static_cast<unsigned char>(s_[i_])) || s_[i_] == ',')) ++i_;
    }
    bool at_end() { skip_separators(); return i_ >= s_.size(); }
    std::size_t position() const { return i_; }
    char peek() { skip_separators(); return i_ < s_.size() ? s_[i_] : '\0'; }
    char take() { return s_[i_++]; }
    bool next_is_number() {
        char c = peek();
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
    }
    // Reads one number in SVG's grammar (no hex, no inf/nan words).
    bool number(double& out) {
        skip_separators();
        std::size_t start = i_;
        if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
        bool digits = false;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) { ++i_; digits = true; }
        if (i_ < s_.size() && s_[i_] == '.') {
            ++i_;
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) { ++i_; digits = true; }
        }
        if (!digits) { i_ = start; return false; }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            std::size_t mark = i_++;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            bool exp_digits = false;
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) { ++i_; exp_digits = true; }
            if (!exp_digits) i_ = mark;
        }
        std::string token = s_.substr(start, i_ - start);
        if (token.size() > 64) return false;
        char* end = nullptr;
        out = std::strtod(token.c_str(), &end);
        return std::isfinite(out) && std::fabs(out) <= kMaxCoordinate;
    }
    // Arc flags may be written without separators ("a1 1 0 10 5 5").
    bool flag(bool& out) {
        skip_separators();
        if (i_ < s_.size() && (s_[i_] == '0' || s_[i_] == '1')) {
            out = s_[i_++] == '1';
            return true;
        }
        return false;
    }

private:
    const std::string& s_;
    std::size_t i_ = 0;
};

Failure bad_path(const std::string& why, std::size_t at) {
    return fail(ACC_E_SVG_MALFORMED, "path data: " + why + " at " + std::to_string(at), static_cast<int>(at));
}

}  // namespace

Result<std::vector<PathSegment>> parse_path_data(const std::string& d) {
    std::vector<PathSegment> out;
    NumberScanner in(d);
    Point current, start, last_control;
    char last_command = 0;
    char command = 0;
    while (!in.at_end()) {
        if (out.size() > kMaxSegments) return bad_path("too many segments", in.position());
        char c = in.peek();
        if (std::isalpha(static_cast<unsigned char>(c))) {
            command = in.take();
        } else if (command == 0) {
            return bad_path("data must start with a command", in.position());
        } else if (command == 'M') {
            command = 'L';  // extra coordinate pairs after a move are lines
        } else if (command == 'm') {
            command = 'l';
        } else if (command == 'Z' || command == 'z') {
            return bad_path("numbers after closepath", in.position());
        }
        bool relative = std::islower(static_cast<unsigned char>(command)) != 0;
        char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(command)));
        auto point = [&](Point& p) {
            double x, y;
            if (!in.number(x) || !in.number(y)) return false;
            p = relative ? Point{current.x + x, current.y + y} : Point{x, y};
            return std::fabs(p.x) <= kMaxCoordinate && std::fabs(p.y) <= kMaxCoordinate;
        };
        PathSegment seg;
        seg.from = current;
        switch (upper) {
            case 'M':
                if (!point(seg.to)) return bad_path("bad moveto coordinates", in.position());
                seg.kind = PathSegment::kMove;
                start = seg.to;
                break;
            case 'L':
                if (!point(seg.to)) return bad_path("bad lineto coordinates", in.position());
                seg.kind = PathSegment::kLine;
                break;
            case 'H': case 'V': {
                double v;
                if (!in.number(v)) return bad_path("bad coordinate", in.position());
                seg.kind = PathSegment::kLine;
                seg.to = current;
                if (upper == 'H') seg.to.x = relative ? current.x + v : v;
                else seg.to.y = relative ? current.y + v : v;
                if (std::fabs(seg.to.x) > kMaxCoordinate || std::fabs(seg.to.y) > kMaxCoordinate) return bad_path("coordinate out of range", in.position());
                break;
            }
            case 'C':
                if (!point(seg.c1) || !point(seg.c2) || !point(seg.to)) return bad_path("bad curveto coordinates", in.position());
                seg.kind = PathSegment::kCubic;
                break;
            case 'S': {
                bool smooth = last_command == 'C' || last_command == 'S';
                seg.c1 = smooth ? Point{2 * current.x - last_control.x, 2 * current.y - last_control.y} : current;
                if (!point(seg.c2) || !point(seg.to)) return bad_path("bad smooth curveto coordinates", in.position());
                seg.kind = PathSegment::kCubic;
                break;
            }
            case 'Q':
                if (!point(seg.c1) || !point(seg.to)) return bad_path("bad quadratic coordinates", in.position());
                seg.kind = PathSegment::kQuadratic;
                break;
            case 'T': {
                bool smooth = last_command == 'Q' || last_command == 'T';
                seg.c1 = smooth ? Point{2 * current.x - last_control.x, 2 * current.y - last_control.y} : current;
                if (!point(seg.to)) return bad_path("bad smooth quadratic coordinates", in.position());
                seg.kind = PathSegment::kQuadratic;
                break;
            }
            case 'A':
                if (!in.number(seg.rx) || !in.number(seg.ry) || !in.number(seg.rotation) || !in.flag(seg.large_arc) ||
                    !in.flag(seg.sweep) || !point(seg.to))
                    return bad_path("bad arc parameters", in.position());
                seg.kind = PathSegment::kArc;
                break;
            case 'Z':
                seg.kind = PathSegment::kClose;
                seg.to = start;
                break;
            default:
                return bad_path(std::string("unknown command '") + command + "'", in.position());
        }
        last_control = seg.kind == PathSegment::kCubic ? seg.c2 : seg.c1;
        last_command = upper;
        current = seg.to;
        out.push_back(seg);
        if (upper == 'Z' && in.next_is_number()) return bad_path("numbers after closepath", in.position());
    }
    return out;
}

namespace {

void add_arc(std::vector<Point>& poly, const PathSegment& s, double tolerance) {
    // Endpoint to center parameterisation (SVG 1.1 implementation notes F.6.5).
    double rx = std::fabs(s.rx), ry = std::fabs(s.ry);
    if (rx < 1e-12 || ry < 1e-12) {
        poly.push_back(s.to);
        return;
    }
    double phi = s.rotation * kPi / 180.0;
    double cp = std::cos(phi), sp = std::sin(phi);
    double dx = (s.from.x - s.to.x) / 2, dy = (s.from.y - s.to.y) / 2;
    double x1 = cp * dx + sp * dy, y1 = -sp * dx + cp * dy;
    double lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
    if (lambda > 1) {
        rx *= std::sqrt(lambda);
        ry *= std::sqrt(lambda);
    }
    double num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
    double den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
    double coef = den > 0 ? std::sqrt(std::max(0.0, num / den)) : 0;
    if (s.large_arc == s.sweep) coef = -coef;
    double cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx;
    double cx = cp * cx1 - sp * cy1 + (s.from.x + s.to.x) / 2;
    double cy = sp * cx1 + cp * cy1 + (s.from.y + s.to.y) / 2;
    auto angle = [](double ux, double uy, double vx, double vy) {
        return std::atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    };
    double t1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
    double dt = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
    if (!s.sweep && dt > 0) dt -= 2 * kPi;
    if (s.sweep && dt < 0) dt += 2 * kPi;
    double r = std::max(rx, ry);
    int steps = static_cast<int>(std::ceil(std::fabs(dt) / (2 * std::acos(std::max(-1.0, 1 - tolerance / r)))));
    steps = std::max(1, std::min(steps, 1024));
    for (int i = 1; i <= steps; ++i) {
        double t = t1 + dt * i / steps;
        double ex = rx * std::cos(t), ey = ry * std::sin(t);
        poly.push_back(Point{cp * ex - sp * ey + cx, sp * ex + cp * ey + cy});
    }
}

int curve_steps(double length, double tolerance) {
    int n = static_cast<int>(std::ceil(std::sqrt(length / std::max(tolerance, 1e-6))));
    return std::max(1, std::min(n, 256));
}

}  // namespace

std::vector<std::vector<Point>> flatten_path(const std::vector<PathSegment>& path, double tolerance) {
    std::vector<std::vector<Point>> polys;
    for (const auto& s : path) {
        if (s.kind == PathSegment::kMove || polys.empty()) {
            polys.emplace_back();
            polys.back().push_back(s.kind == PathSegment::kMove ? s.to : s.from);
            if (s.kind == PathSegment::kMove) continue;
        }
        auto& poly = polys.back();
        switch (s.kind) {
            case PathSegment::kLine:
            case PathSegment::kClose:
                poly.push_back(s.to);
                break;
            case PathSegment::kCubic: {
                double len = std::hypot(s.c1.x - s.from.x, s.c1.y - s.from.y) + std::hypot(s.c2.x - s.c1.x, s.c2.y - s.c1.y) +
                             std::hypot(s.to.x - s.c2.x, s.to.y - s.c2.y);
                int n = curve_steps(len, tolerance);
                for (int i = 1; i <= n; ++i) {
                    double t = static_cast<double>(i) / n, u = 1 - t;
                    poly.push_back(Point{u * u * u * s.from.x + 3 * u * u * t * s.c1.x + 3 * u * t * t * s.c2.x + t * t * t * s.to.x,
                                         u * u * u * s.from.y + 3 * u * u * t * s.c1.y + 3 * u * t * t * s.c2.y + t * t * t * s.to.y});
                }
                break;
            }
            case PathSegment::kQuadratic: {
                double len = std::hypot(s.c1.x - s.from.x, s.c1.y - s.from.y) + std::hypot(s.to.x - s.c1.x, s.to.y - s.c1.y);
                int n = curve_steps(len, tolerance);
                for (int i = 1; i <= n; ++i) {
                    double t = static_cast<double>(i) / n, u = 1 - t;
                    poly.push_back(Point{u * u * s.from.x + 2 * u * t * s.c1.x + t * t * s.to.x, u * u * s.from.y + 2 * u * t * s.c1.y + t * t * s.to.y});
                }
                break;
            }
            case PathSegment::kArc:
                add_arc(poly, s, tolerance);
                break;
            case PathSegment::kMove:
                break;
        }
    }
    return polys;
}

Affine Affine::then(const Affine& n) const {
    Affine r;
    r.a = n.a * a + n.c * b;
    r.b = n.b * a + n.d * b;
    r.c = n.a * c + n.c * d;
    r.d = n.b * c + n.d * d;
    r.e = n.a * e + n.c * f + n.e;
    r.f = n.b * e + n.d * f + n.f;
    return r;
}

Result<Affine> parse_transform(const std::string& text) {
    Affine total;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',')) ++i;
        if (i >= text.size()) break;
        std::size_t name_start = i;
        while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
        std::string name = text.substr(name_start, i - name_start);
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != '(') return fail(ACC_E_SVG_MALFORMED, "transform: expected '(' after '" + name + "'", static_cast<int>(i));
        std::size_t close = text.find(')', i);
        if (close == std::string::npos) return fail(ACC_E_SVG_MALFORMED, "transform: missing ')'", static_cast<int>(i));
        std::string args = text.substr(i + 1, close - i - 1);
        i = close + 1;
        NumberScanner in(args);
        double v[6];
        int n = 0;
        while (!in.at_end()) {
            if (n == 6 || !in.number(v[n])) return fail(ACC_E_SVG_MALFORMED, "transform: bad arguments to '" + name + "'", static_cast<int>(name_start));
            ++n;
        }
        Affine t;
        double rad = 0;
        if (name == "matrix" && n == 6) {
            t = Affine{v[0], v[1], v[2], v[3], v[4], v[5]};
        } else if (name == "translate" && (n == 1 || n == 2)) {
            t.e = v[0];
            t.f = n == 2 ? v[1] : 0;
        } else if (name == "scale" && (n == 1 || n == 2)) {
            t.a = v[0];
            t.d = n == 2 ? v[1] : v[0];
        } else if (name == "rotate" && (n == 1 || n == 3)) {
            rad = v[0] * kPi / 180.0;
            Affine r{std::cos(rad), std::sin(rad), -std::sin(rad), std::cos(rad), 0, 0};
            if (n == 3) {
                Affine to{1, 0, 0, 1, -v[1], -v[2]}, back{1, 0, 0, 1, v[1], v[2]};
                t = to.then(r).then(back);
            } else {
                t = r;
            }
        } else if (name == "skewX" && n == 1) {
            t.c = std::tan(v[0] * kPi / 180.0);
        } else if (name == "skewY" && n == 1) {
            t.b = std::tan(v[0] * kPi / 180.0);
        } else {
            return fail(ACC_E_SVG_MALFORMED, "transform: unsupported '" + name + "' with " + std::to_string(n) + " arguments", static_cast<int>(name_start));
        }
        // SVG applies the rightmost transform first: total = total * t.
        total = t.then(total);
    }
    return total;
}

}  // namespace appclip
