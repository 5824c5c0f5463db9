/// A point in pixels (or code units, for the code plane).
public struct Point2: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A plane-to-image homography, row-major 3×3: code plane (SVG units 0…800) → pixels.
public struct Homography: Sendable, Hashable {
    public var m: [Double]

    /// nil unless `m` has 9 finite entries.
    public init?(rowMajor m: [Double]) {
        guard m.count == 9, m.allSatisfy(\.isFinite) else { return nil }
        self.m = m
    }

    public static let identity = Homography(unchecked: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    init(unchecked m: [Double]) { self.m = m }

    /// Maps a code-plane point to the image; nil at the line at infinity.
    public func apply(_ p: Point2) -> Point2? {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        guard abs(w) > 1e-12 else { return nil }
        return Point2(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }
}
