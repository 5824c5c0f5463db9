#if canImport(simd)
import simd
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4×4 matrix of `Float`, stored column-major exactly like `simd_float4x4` (ARKit's
/// transforms): `columns.3` holds the translation. Available on every platform; on
/// Apple platforms it converts to and from `simd_float4x4` without loss.
public struct Matrix4x4: Sendable, Hashable, CustomStringConvertible {
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    public init(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>) {
        columns = (c0, c1, c2, c3)
    }

    public static let identity = Matrix4x4(
        SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// From 16 numbers in column-major order (nil unless there are 16 finite values).
    public init?(columnMajor values: [Float]) {
        guard values.count == 16, values.allSatisfy(\.isFinite) else { return nil }
        self.init(
            SIMD4(values[0], values[1], values[2], values[3]), SIMD4(values[4], values[5], values[6], values[7]),
            SIMD4(values[8], values[9], values[10], values[11]), SIMD4(values[12], values[13], values[14], values[15]))
    }

    /// From 16 numbers in row-major order, as written in math texts and JSON files.
    public init?(rowMajor values: [Float]) {
        guard values.count == 16 else { return nil }
        var columnMajor = [Float](repeating: 0, count: 16)
        for row in 0..<4 {
            for column in 0..<4 { columnMajor[column * 4 + row] = values[row * 4 + column] }
        }
        self.init(columnMajor: columnMajor)
    }

    /// The 16 numbers in column-major order.
    public var columnMajor: [Float] {
        let c = [columns.0, columns.1, columns.2, columns.3]
        return c.flatMap { [$0.x, $0.y, $0.z, $0.w] }
    }

    public subscript(column: Int, row: Int) -> Float {
        get {
            switch column {
            case 0: return columns.0[row]
            case 1: return columns.1[row]
            case 2: return columns.2[row]
            default: return columns.3[row]
            }
        }
        set {
            switch column {
            case 0: columns.0[row] = newValue
            case 1: columns.1[row] = newValue
            case 2: columns.2[row] = newValue
            default: columns.3[row] = newValue
            }
        }
    }

    /// The translation part (`columns.3.xyz`).
    public var translation: SIMD3<Float> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }

    public static func * (a: Matrix4x4, b: Matrix4x4) -> Matrix4x4 {
        func times(_ v: SIMD4<Float>) -> SIMD4<Float> {
            a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z + a.columns.3 * v.w
        }
        return Matrix4x4(times(b.columns.0), times(b.columns.1), times(b.columns.2), times(b.columns.3))
    }

    public static func * (a: Matrix4x4, v: SIMD4<Float>) -> SIMD4<Float> {
        a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z + a.columns.3 * v.w
    }

    public static func == (a: Matrix4x4, b: Matrix4x4) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
            && a.columns.3 == b.columns.3
    }

    public func hash(into hasher: inout Hasher) {
        for v in columnMajor { hasher.combine(v) }
    }

    public var description: String {
        (0..<4).map { row in (0..<4).map { String(self[$0, row]) }.joined(separator: " ") }.joined(separator: "\n")
    }

    #if canImport(simd)
    public init(_ m: simd_float4x4) {
        self.init(m.columns.0, m.columns.1, m.columns.2, m.columns.3)
    }

    public var simd: simd_float4x4 { simd_float4x4(columns.0, columns.1, columns.2, columns.3) }
    #endif
}

// MARK: - Double-precision rigid transforms used inside the session

/// A 3×3 matrix of `Double`, row-major (`m[r * 3 + c]`).
struct Matrix3: Sendable, Equatable {
    var m: [Double]

    init(rowMajor m: [Double]) { self.m = m }

    static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        m = [c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z]
    }

    subscript(r: Int, c: Int) -> Double {
        get { m[r * 3 + c] }
        set { m[r * 3 + c] = newValue }
    }

    func column(_ c: Int) -> SIMD3<Double> { SIMD3(m[c], m[3 + c], m[6 + c]) }

    var transposed: Matrix3 {
        Matrix3(rowMajor: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 { out[r * 3 + c] = a[r, 0] * b[0, c] + a[r, 1] * b[1, c] + a[r, 2] * b[2, c] }
        }
        return Matrix3(rowMajor: out)
    }

    static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a[0, 0] * v.x + a[0, 1] * v.y + a[0, 2] * v.z,
              a[1, 0] * v.x + a[1, 1] * v.y + a[1, 2] * v.z,
              a[2, 0] * v.x + a[2, 1] * v.y + a[2, 2] * v.z)
    }

    var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// nil when (nearly) singular.
    var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-300, d.isFinite else { return nil }
        let i = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Matrix3(rowMajor: i.map { $0 / d })
    }

    /// Rotation about a unit axis by `angle` radians (Rodrigues).
    static func rotation(axis: SIMD3<Double>, angle: Double) -> Matrix3 {
        let n = (axis * axis).sum().squareRoot()
        guard n > 1e-15 else { return .identity }
        let a = axis / n
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Matrix3(rowMajor: [
            c + a.x * a.x * t, a.x * a.y * t - a.z * s, a.x * a.z * t + a.y * s,
            a.y * a.x * t + a.z * s, c + a.y * a.y * t, a.y * a.z * t - a.x * s,
            a.z * a.x * t - a.y * s, a.z * a.y * t + a.x * s, c + a.z * a.z * t,
        ])
    }
}

/// A rigid transform in double precision: X_to = rotation · X_from + translation.
struct RigidTransform: Sendable, Equatable {
    var rotation: Matrix3
    var translation: SIMD3<Double>

    static let identity = RigidTransform(rotation: .identity, translation: .zero)

    static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { rotation * p + translation }

    var inverse: RigidTransform {
        let rt = rotation.transposed
        return RigidTransform(rotation: rt, translation: -(rt * translation))
    }

    var matrix4x4: Matrix4x4 {
        func col(_ c: Int) -> SIMD4<Float> {
            SIMD4(Float(rotation[0, c]), Float(rotation[1, c]), Float(rotation[2, c]), 0)
        }
        return Matrix4x4(col(0), col(1), col(2),
                         SIMD4(Float(translation.x), Float(translation.y), Float(translation.z), 1))
    }

    /// From a 4×4 whose upper-left 3×3 is a rotation (scale and shear are not removed).
    init(_ m: Matrix4x4) {
        rotation = Matrix3(rowMajor: (0..<3).flatMap { r in (0..<3).map { c in Double(m[c, r]) } })
        translation = SIMD3(Double(m[3, 0]), Double(m[3, 1]), Double(m[3, 2]))
    }

    init(rotation: Matrix3, translation: SIMD3<Double>) {
        self.rotation = rotation
        self.translation = translation
    }
}

func dot3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

func cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

func length3(_ a: SIMD3<Double>) -> Double { dot3(a, a).squareRoot() }
