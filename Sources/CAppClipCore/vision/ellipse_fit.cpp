#include "ellipse_fit.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"

namespace appclip::vision {

cv::RotatedRect fit_ellipse(const std::vector<cv::Point2f>& points) {
    const size_t n = points.size();
    cv::RotatedRect none(cv::Point2f(0, 0), cv::Size2f(0, 0), 0);
    if (n < 5) return none;
    // Centred and scaled to unit mean distance, so the fourth-order moments stay well conditioned.
    double mx = 0, my = 0;
    for (const cv::Point2f& p : points) mx += p.x, my += p.y;
    mx /= static_cast<double>(n), my /= static_cast<double>(n);
    double spread = 0;
    for (const cv::Point2f& p : points) spread += std::abs(p.x - mx) + std::abs(p.y - my);
    if (!(spread > 1e-9)) return none;
    const double s = static_cast<double>(n) / spread;
    // Moments Σ x^i y^j (i + j <= 4) of the normalised points.
    double m[5][5] = {};
    for (const cv::Point2f& p : points) {
        const double x = (p.x - mx) * s, y = (p.y - my) * s;
        const double x2 = x * x, y2 = y * y, xy = x * y;
        m[1][0] += x, m[0][1] += y;
        m[2][0] += x2, m[1][1] += xy, m[0][2] += y2;
        m[3][0] += x2 * x, m[2][1] += x2 * y, m[1][2] += x * y2, m[0][3] += y2 * y;
        m[4][0] += x2 * x2, m[3][1] += x2 * xy, m[2][2] += x2 * y2, m[1][3] += xy * y2, m[0][4] += y2 * y2;
    }
    m[0][0] = static_cast<double>(n);
    // Points on one line (to rounding) fix no ellipse, though the conic fit would still
    // return a needle-thin one: the spread across their main direction must not vanish.
    const double across = m[2][0] * m[0][2] - m[1][1] * m[1][1], along = m[2][0] + m[0][2];
    if (!(across > 1e-10 * along * along)) return none;
    // Conic a x² + b xy + c y² + d x + e y + f: quadratic terms q = (a, b, c), linear l = (d, e, f).
    // Scatter blocks: S1 = Σ q qᵀ, S2 = Σ q lᵀ, S3 = Σ l lᵀ.
    const cv::Matx33d s1(m[4][0], m[3][1], m[2][2], m[3][1], m[2][2], m[1][3], m[2][2], m[1][3], m[0][4]);
    const cv::Matx33d s2(m[3][0], m[2][1], m[2][0], m[2][1], m[1][2], m[1][1], m[1][2], m[0][3], m[0][2]);
    const cv::Matx33d s3(m[2][0], m[1][1], m[1][0], m[1][1], m[0][2], m[0][1], m[1][0], m[0][1], m[0][0]);
    bool ok = false;
    const cv::Matx33d s3_inv = s3.inv(cv::DECOMP_LU, &ok);
    if (!ok) return none;
    // The linear terms that fit best for given quadratic ones: l = T q.
    const cv::Matx33d t = -(s3_inv * s2.t());
    const cv::Matx33d reduced = s1 + s2 * t;
    // The constraint 4ac − b² = 1 as qᵀ C q; C⁻¹ applied to the reduced scatter.
    const cv::Matx33d mat(0.5 * reduced(2, 0), 0.5 * reduced(2, 1), 0.5 * reduced(2, 2),
                          -reduced(1, 0), -reduced(1, 1), -reduced(1, 2),
                          0.5 * reduced(0, 0), 0.5 * reduced(0, 1), 0.5 * reduced(0, 2));
    // Its eigenvalues are real; the ellipse's is the only positive one, so the largest.
    // Characteristic polynomial λ³ − p2 λ² + p1 λ − p0, solved in trigonometric form.
    const double p2 = cv::trace(mat);
    const double p1 = mat(0, 0) * mat(1, 1) - mat(0, 1) * mat(1, 0) + mat(0, 0) * mat(2, 2) - mat(0, 2) * mat(2, 0) +
                      mat(1, 1) * mat(2, 2) - mat(1, 2) * mat(2, 1);
    const double p0 = cv::determinant(mat);
    const double shift = p2 / 3.0;
    // λ = μ + shift: μ³ + P μ + Q = 0.
    const double big_p = p1 - p2 * p2 / 3.0;
    const double big_q = -2.0 * p2 * p2 * p2 / 27.0 + p2 * p1 / 3.0 - p0;
    double lambda;
    if (big_p < 0) {
        const double r = std::sqrt(-big_p / 3.0);
        const double cos_arg = std::clamp(-big_q / (2.0 * r * r * r), -1.0, 1.0);
        lambda = shift + 2.0 * r * std::cos(std::acos(cos_arg) / 3.0);
    } else {
        lambda = shift + std::cbrt(-big_q);   // one real root (or a triple one)
    }
    // Its eigenvector: the longest cross product of two rows of (mat − λI).
    const cv::Vec3d r0(mat(0, 0) - lambda, mat(0, 1), mat(0, 2));
    const cv::Vec3d r1(mat(1, 0), mat(1, 1) - lambda, mat(1, 2));
    const cv::Vec3d r2(mat(2, 0), mat(2, 1), mat(2, 2) - lambda);
    cv::Vec3d q = r0.cross(r1);
    for (const cv::Vec3d& c : {r0.cross(r2), r1.cross(r2)})
        if (c.dot(c) > q.dot(q)) q = c;
    if (!(q.dot(q) > 0)) return none;
    if (q[0] + q[2] < 0) q = -q;   // a + c > 0: the quadratic form positive
    const cv::Vec3d l = t * q;
    ConicEllipse ellipse;
    if (!ellipse_of_conic(q[0], q[1], q[2], l[0], l[1], l[2], ellipse)) return none;
    double angle = ellipse.minor_angle / kDeg;
    if (angle < 0) angle += 180.0;
    if (angle >= 180.0) angle -= 180.0;
    return cv::RotatedRect(cv::Point2f(static_cast<float>(ellipse.x0 / s + mx), static_cast<float>(ellipse.y0 / s + my)),
                           cv::Size2f(static_cast<float>(2 * (ellipse.semi_minor / s)),
                                      static_cast<float>(2 * (ellipse.semi_major / s))),
                           static_cast<float>(angle));
}

bool ellipse_of_conic(double a, double b, double c, double d, double e, double f, ConicEllipse& out) {
    const double den = 4 * a * c - b * b;
    if (!(den > 0)) return false;
    const double x0 = (b * e - 2 * c * d) / den, y0 = (b * d - 2 * a * e) / den;
    const double f0 = f + 0.5 * (d * x0 + e * y0);   // the conic's value at the centre
    // Principal values of the quadratic form: the larger one belongs to the minor axis.
    const double mean = 0.5 * (a + c), half = std::hypot(0.5 * (a - c), 0.5 * b);
    const double big = mean + half, small = mean - half;
    if (!(small > 0) || !(f0 < 0)) return false;
    out = {x0, y0, std::sqrt(-f0 / big), std::sqrt(-f0 / small), 0.5 * std::atan2(b, a - c)};
    return true;
}

}  // namespace appclip::vision
