#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The code's physical size from its image in frames whose camera poses are known.
///
/// A unit-diameter pose from the homography gives, per frame i, the vector v_i (world axes) from
/// the camera center C_i to the code center for a code 1 m across. The code is static, so its
/// center X and diameter D satisfy X = C_i + D · v_i in every frame: three linear equations in
/// the four unknowns (X, D) per frame. Each frame is weighted by its measurement noise, small
/// across the line of sight (the center's pixel) and larger along it (the apparent size); the
/// normal equations are accumulated, so each frame costs O(1). With little camera motion the
/// system stays ill-conditioned and the uncertainty says so.
struct SizeTriangulation: Sendable {
    // The 4 × 4 normal equations (row-major) and their right-hand side, held inline.
    private var normal = SIMD16<Double>()
    private var rhs = SIMD4<Double>()
    private var bwb = 0.0
    private(set) var frames = 0
    /// The widest angle between two lines of sight so far, radians: with little of it the
    /// size rests on the noise model alone.
    private(set) var parallax = 0.0
    private var directions: [SIMD3<Double>] = []

    /// - Parameters:
    ///   - cameraCenter: C_i, world.
    ///   - unitRay: v_i, world (code center from the camera, for a 1 m code).
    ///   - acrossSigma, alongSigma: 1σ of the code center across / along the line of sight, for a 1 m code.
    mutating func add(cameraCenter c: SIMD3<Double>, unitRay v: SIMD3<Double>, acrossSigma: Double, alongSigma: Double) {
        let n = length3(v)
        guard n > 1e-12, acrossSigma > 0, alongSigma > 0, c.x.isFinite, c.y.isFinite, c.z.isFinite else { return }
        let u = v / n
        // The widest angle to an earlier line of sight: arccos falls as the cosine grows, so one
        // arccos of the smallest cosine.
        if !directions.isEmpty {
            var smallest = 1.0
            for d in directions { smallest = min(smallest, max(-1, min(1, dot3(d, u)))) }
            parallax = max(parallax, acos(smallest))
        }
        directions.append(u)
        if directions.count > 240 { directions.removeFirst(directions.count - 240) }
        let wa = 1 / (acrossSigma * acrossSigma), wl = 1 / (alongSigma * alongSigma)
        // W = wa (I − u uᵀ) + wl u uᵀ (rows of stride 4)
        var w = SIMD16<Double>()
        for i in 0..<3 {
            for j in 0..<3 { w[i * 4 + j] = (i == j ? wa : 0) + (wl - wa) * u[i] * u[j] }
        }
        // Rows: [I | −v] x = c (rows of stride 4)
        var a = SIMD16<Double>()
        for i in 0..<3 {
            a[i * 4 + i] = 1
            a[i * 4 + 3] = -v[i]
        }
        for p in 0..<4 {
            for q in 0..<4 {
                var s = 0.0
                for i in 0..<3 { for j in 0..<3 { s += a[i * 4 + p] * w[i * 4 + j] * a[j * 4 + q] } }
                normal[p * 4 + q] += s
            }
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += a[i * 4 + p] * w[i * 4 + j] * c[j] } }
            rhs[p] += s
        }
        for i in 0..<3 { for j in 0..<3 { bwb += c[i] * w[i * 4 + j] * c[j] } }
        frames += 1
    }

    /// Diameter and its 1σ, and the code center (world), once at least `minimumFrames` frames are in.
    func solve(minimumFrames: Int = 3) -> (diameter: Double, sigma: Double, center: SIMD3<Double>)? {
        guard frames >= minimumFrames, let (x, variance33) = solveNormalEquations(), x[3] > 0 else { return nil }
        // Residual χ² scales the covariance when the frames disagree more than the noise model says.
        var xnx = 0.0, xr = 0.0
        for p in 0..<4 {
            xr += x[p] * rhs[p]
            for q in 0..<4 { xnx += x[p] * normal[p * 4 + q] * x[q] }
        }
        let chi2 = max(0, bwb - 2 * xr + xnx)
        let dof = Double(3 * frames - 4)
        let factor = max(1, dof > 0 ? chi2 / dof : 1)
        // The weights were for a 1 m code; noise scales with the diameter.
        let variance = variance33 * factor * x[3] * x[3]
        guard variance.isFinite, variance >= 0 else { return nil }
        return (x[3], variance.squareRoot(), SIMD3(x[0], x[1], x[2]))
    }

    /// The least-squares (X, D) and the (D, D) entry of the normal matrix's inverse; nil when the
    /// system is singular.
    private func solveNormalEquations() -> (x: SIMD4<Double>, inverse33: Double)? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 40) { buffer -> (SIMD4<Double>, Double)? in
            guard let a = buffer.baseAddress else { return nil }
            let b = a + 16, x = a + 20, inverse = a + 24
            for i in 0..<16 { a[i] = normal[i] }
            for i in 0..<4 { b[i] = rhs[i] }
            guard LinearAlgebra.solve(a, b, size: 4, into: x),
                  LinearAlgebra.inverse(a, size: 4, into: inverse) else { return nil }
            return (SIMD4(x[0], x[1], x[2], x[3]), inverse[15])
        }
    }
}

/// The code's physical size from a depth map: at points on the code's face, measured depth over
/// the depth a 1 m code would have there (from the unit-diameter pose) is the diameter.
struct DepthSizing: Sendable {
    private var estimates: [Double] = []
    private var withinSigmas: [Double] = []
    static let keep = 90

    /// Face points sampled per frame, in SVG units relative to the center (inside the rim).
    static let facePoints: [SIMD2<Double>] = {
        var out: [SIMD2<Double>] = [SIMD2(0, 0)]
        for radius in [120.0, 240, 330] {
            for k in 0..<8 {
                let a = Double(k) * Double.pi / 4 + (radius == 240 ? Double.pi / 8 : 0)
                out.append(SIMD2(radius * cosine(a), radius * sine(a)))
            }
        }
        return out
    }()

    var frames: Int { estimates.count }

    /// One frame: `unitPose` is the pose for a 1 m code (vision camera), `homography` SVG → pixels.
    mutating func add(depth: DepthMap, imageWidth: Int, imageHeight: Int, homography: Homography, unitPose: CodePose) {
        let r = unitPose.rotationMatrix
        var ratios: [Double] = []
        for p in DepthSizing.facePoints {
            guard let pixel = homography.apply(Point2(x: 400 + p.x, y: 400 + p.y)),
                  let z = depth.depth(atImageX: pixel.x, y: pixel.y, imageWidth: imageWidth, imageHeight: imageHeight)
            else { continue }
            let local = SIMD3(p.x / 800, p.y / 800, 0)   // meters for a 1 m code
            let zUnit = (r * local + unitPose.centerCamera).z
            guard zUnit > 1e-9 else { continue }
            ratios.append(z / zUnit)
        }
        guard ratios.count >= 5 else { return }
        ratios.sort()
        let median = ratios[ratios.count / 2]
        let deviations = ratios.map { abs($0 - median) }.sorted()
        let mad = deviations[deviations.count / 2] * 1.4826
        estimates.append(median)
        withinSigmas.append(max(mad, 1e-6 * median) / Double(ratios.count).squareRoot())
        if estimates.count > DepthSizing.keep {
            estimates.removeFirst()
            withinSigmas.removeFirst()
        }
    }

    /// Diameter and 1σ: the mean of the per-frame medians; the spread between frames (or,
    /// with one frame, within it) gives the uncertainty.
    func solve() -> (diameter: Double, sigma: Double)? {
        guard !estimates.isEmpty else { return nil }
        let n = Double(estimates.count)
        let mean = estimates.reduce(0, +) / n
        let within = withinSigmas.reduce(0, +) / n
        guard estimates.count >= 2 else { return (mean, within) }
        let variance = estimates.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)
        // Frames share the depth sensor's bias, so the spread is not divided away entirely.
        let sigma = max(within / n.squareRoot(), (variance / n).squareRoot())
        return (mean, sigma)
    }
}
