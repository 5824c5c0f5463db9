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

/// A 3×3 matrix of `Double`, row-major, held in three rows so that products, turns and
/// transforms allocate nothing (they run several times per tracked code per frame).
struct Matrix3: Sendable, Equatable {
    var row0: SIMD3<Double>
    var row1: SIMD3<Double>
    var row2: SIMD3<Double>

    init(rows row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// From 9 numbers, row-major (`m[r * 3 + c]`).
    init(rowMajor m: [Double]) {
        self.init(rows: SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
    }

    /// The 9 numbers, row-major.
    var m: [Double] { [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z] }

    static let identity = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(rows: SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    func row(_ r: Int) -> SIMD3<Double> {
        switch r {
        case 0: return row0
        case 1: return row1
        default: return row2
        }
    }

    subscript(r: Int, c: Int) -> Double {
        get { row(r)[c] }
        set {
            switch r {
            case 0: row0[c] = newValue
            case 1: row1[c] = newValue
            default: row2[c] = newValue
            }
        }
    }

    func column(_ c: Int) -> SIMD3<Double> { SIMD3(row0[c], row1[c], row2[c]) }

    var transposed: Matrix3 { Matrix3(columns: row0, row1, row2) }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        // Each entry summed left to right, as a[r,0]·b[0,c] + a[r,1]·b[1,c] + a[r,2]·b[2,c].
        func times(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * b.row0 + r.y * b.row1 + r.z * b.row2 }
        return Matrix3(rows: times(a.row0), times(a.row1), times(a.row2))
    }

    static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.row0.x * v.x + a.row0.y * v.y + a.row0.z * v.z,
              a.row1.x * v.x + a.row1.y * v.y + a.row1.z * v.z,
              a.row2.x * v.x + a.row2.y * v.y + a.row2.z * v.z)
    }

    var determinant: Double {
        let (a, b, c) = (row0, row1, row2)
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// nil when (nearly) singular.
    var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-300, d.isFinite else { return nil }
        let (a, b, c) = (row0, row1, row2)
        return Matrix3(rows: SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y) / d,
                       SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z) / d,
                       SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x) / d)
    }

    /// Rotation about a unit axis by `angle` radians (Rodrigues).
    static func rotation(axis: SIMD3<Double>, angle: Double) -> Matrix3 {
        let n = (axis * axis).sum().squareRoot()
        guard n > 1e-15 else { return .identity }
        let a = axis / n
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Matrix3(rows: SIMD3(c + a.x * a.x * t, a.x * a.y * t - a.z * s, a.x * a.z * t + a.y * s),
                       SIMD3(a.y * a.x * t + a.z * s, c + a.y * a.y * t, a.y * a.z * t - a.x * s),
                       SIMD3(a.z * a.x * t - a.y * s, a.z * a.y * t + a.x * s, c + a.z * a.z * t))
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
        func row(_ r: Int) -> SIMD3<Double> { SIMD3(Double(m[0, r]), Double(m[1, r]), Double(m[2, r])) }
        rotation = Matrix3(rows: row(0), row(1), row(2))
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
