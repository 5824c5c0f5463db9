#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotation of the code plane about the code center, possibly after a mirror (x, y) → (x, −y):
/// `R(angle) · M^mirrored` in centred code coordinates (SVG axes, y down). The reader picks a
/// code's orientation from its data rings; two readings of the same code with different picks
/// differ by one of these.
public struct CodeOrientation: Sendable, Equatable {
    public var mirrored: Bool
    /// Radians, in (−π, π].
    public var angle: Double

    public static let identity = CodeOrientation(mirrored: false, angle: 0)

    public init(mirrored: Bool, angle: Double) {
        self.mirrored = mirrored
        self.angle = CodeOrientation.wrap(angle)
    }

    public static func wrap(_ a: Double) -> Double {
        var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
        if x <= -Double.pi { x += 2 * Double.pi }
        if x > Double.pi { x -= 2 * Double.pi }
        return x
    }

    /// self ∘ other (apply `other` first).
    public func then(after other: CodeOrientation) -> CodeOrientation {
        CodeOrientation(mirrored: mirrored != other.mirrored, angle: angle + (mirrored ? -other.angle : other.angle))
    }

    public var inverse: CodeOrientation { mirrored ? self : CodeOrientation(mirrored: false, angle: -angle) }

    /// As a homography of SVG coordinates (about the center (400, 400)), row-major.
    public var svgMatrix: [Double] {
        let c = cos(angle), s = sin(angle)
        let m: Double = mirrored ? -1 : 1
        // T(400) · R · M · T(-400)
        let a = c, b = -s * m, d = s, e = c * m
        return [a, b, 400 - 400 * a - 400 * b, d, e, 400 - 400 * d - 400 * e, 0, 0, 1]
    }

    /// How `detection` is turned relative to `reference` (both SVG → pixels, of the same code in the
    /// same frame): `detection ≈ reference ∘ turn`. nil for degenerate homographies.
    public static func measure(reference: Homography, detection: Homography) -> CodeOrientation? {
        // Once per tracked code and frame: 3 × 3 products in `Matrix3` and the eight points in
        // SIMD lanes, so nothing is allocated.
        guard let inverse = Matrix3(rowMajor: reference.m).inverse else { return nil }
        let s = inverse * Matrix3(rowMajor: detection.m)
        guard let c = HomographyMath.apply(s, 400, 400) else { return nil }
        // Circle points p and their images relative to the center's, d.
        var px = SIMD8<Double>(), py = SIMD8<Double>(), dx = SIMD8<Double>(), dy = SIMD8<Double>()
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4
            let p = SIMD2(300 * cos(a), 300 * sin(a))
            guard let q = HomographyMath.apply(s, 400 + p.x, 400 + p.y) else { return nil }
            (px[k], py[k], dx[k], dy[k]) = (p.x, p.y, q.x - c.x, q.y - c.y)
        }
        // Orientation of the mapped circle tells a mirror apart.
        var signedArea = 0.0
        for k in 0..<8 {
            let n = (k + 1) % 8
            signedArea += dx[k] * dy[n] - dy[k] * dx[n]
        }
        let mirrored = signedArea < 0
        var sumCross = 0.0, sumDot = 0.0
        for k in 0..<8 {
            let pp = mirrored ? SIMD2(px[k], -py[k]) : SIMD2(px[k], py[k])
            sumCross += pp.x * dy[k] - pp.y * dx[k]
            sumDot += pp.x * dx[k] + pp.y * dy[k]
        }
        guard abs(sumCross) + abs(sumDot) > 1e-9 else { return nil }
        return CodeOrientation(mirrored: mirrored, angle: atan2(sumCross, sumDot))
    }
}

/// Row-major 3×3 homography arithmetic.
enum HomographyMath {
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 { out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c] }
        }
        return out
    }

    static func inverse(_ m: [Double]) -> [Double]? {
        Matrix3(rowMajor: m).inverse?.m
    }

    static func normalized(_ m: [Double]) -> [Double] {
        abs(m[8]) > 1e-300 ? m.map { $0 / m[8] } : m
    }

    static func apply(_ m: [Double], _ x: Double, _ y: Double) -> Point2? { apply(Matrix3(rowMajor: m), x, y) }

    static func apply(_ m: Matrix3, _ x: Double, _ y: Double) -> Point2? {
        let w = m.row2.x * x + m.row2.y * y + m.row2.z
        guard abs(w) > 1e-12 else { return nil }
        return Point2(x: (m.row0.x * x + m.row0.y * y + m.row0.z) / w, y: (m.row1.x * x + m.row1.y * y + m.row1.z) / w)
    }

    /// Pixels per SVG unit at the code center (square root of the local area scale).
    static func scaleAtCenter(_ m: [Double]) -> Double? {
        guard let c = apply(m, 400, 400), let px = apply(m, 401, 400), let py = apply(m, 400, 401) else { return nil }
        let area = (px.x - c.x) * (py.y - c.y) - (px.y - c.y) * (py.x - c.x)
        return abs(area).squareRoot()
    }

    /// `h` turned: h ∘ turn.
    static func turned(_ h: [Double], by turn: CodeOrientation) -> [Double] {
        normalized(multiply(h, turn.svgMatrix))
    }
}
