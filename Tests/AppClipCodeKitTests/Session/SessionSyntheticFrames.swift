import AppClipCodeKit
import Foundation

/// Frames made at test time: the project's own code raster (AppClipCodeGenerator.rgba) warped
/// through a pinhole camera moving around the code, over a textured background, with optional
/// blur and sensor noise. Used where independence from the project's renderer does not matter
/// (tracking, identity, evidence fusion, timing, thread safety); pose accuracy is tested on
/// tools/synth fixtures instead.
///
/// Conventions as tools/synth: world = code frame (origin at the code center, x = SVG +u,
/// y = SVG +v, z into the printed face, meters); camera x right, y down, z forward.
struct SyntheticCamera {
    var intrinsics: CameraIntrinsics
    var width: Int
    var height: Int

    /// World → camera rotation (rows: camera axes in world coordinates) and camera center.
    struct Pose {
        var rotation: [Double]   // row-major, world → camera
        var center: SIMD3<Double>

        var translation: SIMD3<Double> {
            let r = rotation
            return -SIMD3(r[0] * center.x + r[1] * center.y + r[2] * center.z,
                          r[3] * center.x + r[4] * center.y + r[5] * center.z,
                          r[6] * center.x + r[7] * center.y + r[8] * center.z)
        }

        /// World ← camera in ARKit's camera axes (what `Frame.cameraTransform` takes).
        var arkitTransform: Matrix4x4 {
            // world ← vision camera: columns = camera axes in world = rows of `rotation`.
            let r = rotation
            let vision = Matrix4x4(
                SIMD4(Float(r[0]), Float(r[1]), Float(r[2]), 0), SIMD4(Float(r[3]), Float(r[4]), Float(r[5]), 0),
                SIMD4(Float(r[6]), Float(r[7]), Float(r[8]), 0),
                SIMD4(Float(center.x), Float(center.y), Float(center.z), 1))
            return CameraAxes.arkitCameraPose(fromVision: vision)
        }
    }

    static func lookAt(center c: SIMD3<Double>, target: SIMD3<Double>, up: SIMD3<Double>) -> Pose {
        func norm(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        let z = norm(target - c)
        let down = -up
        let y = norm(down - (down * z).sum() * z)
        let x = cross(y, z)
        return Pose(rotation: [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z], center: c)
    }

    /// SVG units → pixels for a code of `diameter` meters.
    func homography(_ pose: Pose, diameter: Double) -> [Double] {
        let r = pose.rotation, t = pose.translation, k = intrinsics
        let s = diameter / 800
        // columns of [r1 r2 t] · S
        let c0 = SIMD3(r[0], r[3], r[6]) * s, c1 = SIMD3(r[1], r[4], r[7]) * s
        let c2 = t - (SIMD3(r[0], r[3], r[6]) + SIMD3(r[1], r[4], r[7])) * (diameter / 2)
        var h = [Double](repeating: 0, count: 9)
        for (i, c) in [c0, c1, c2].enumerated() {
            h[i] = k.fx * c.x + k.cx * c.z
            h[3 + i] = k.fy * c.y + k.cy * c.z
            h[6 + i] = c.z
        }
        return h.map { $0 / h[8] }
    }
}

/// A smooth random function of time (two sinusoids), like tools/synth's camera paths.
struct SmoothWave {
    var amplitude: Double
    var f1, f2, p1, p2, w: Double

    init(amplitude: Double, random: inout SeededRandom, frequencies: ClosedRange<Double> = 0.15...0.4) {
        self.amplitude = amplitude
        f1 = Double.random(in: frequencies, using: &random)
        f2 = Double.random(in: frequencies, using: &random)
        p1 = Double.random(in: 0...(2 * .pi), using: &random)
        p2 = Double.random(in: 0...(2 * .pi), using: &random)
        w = Double.random(in: 0.3...0.7, using: &random)
    }

    func callAsFunction(_ t: Double) -> Double {
        amplitude * (w * sin(2 * .pi * f1 * t + p1) + (1 - w) * sin(2 * .pi * f2 * t + p2))
    }
}

/// A camera orbiting a code at a target apparent diameter, with smooth wander and roll.
struct OrbitPath {
    var camera: SyntheticCamera
    var diameter: Double
    var distance: Double
    var theta0, phi0, phiRate, roll0: Double
    var dTheta, dDistance, roll, wanderX, wanderY: SmoothWave

    init(camera: SyntheticCamera, diameter: Double, apparentDiameterPx: Double, seed: UInt64, tiltRange: ClosedRange<Double> = 5...35) {
        var random = SeededRandom(seed: seed)
        self.camera = camera
        self.diameter = diameter
        distance = camera.intrinsics.fx * diameter / apparentDiameterPx
        theta0 = Double.random(in: tiltRange, using: &random) * .pi / 180
        phi0 = Double.random(in: 0...(2 * .pi), using: &random)
        phiRate = Double.random(in: 0.2...0.6, using: &random) * (Bool.random(using: &random) ? 1 : -1)
        roll0 = Double.random(in: -Double.pi...Double.pi, using: &random)
        dTheta = SmoothWave(amplitude: 8 * .pi / 180, random: &random)
        dDistance = SmoothWave(amplitude: 0.1, random: &random)
        roll = SmoothWave(amplitude: 15 * .pi / 180, random: &random)
        wanderX = SmoothWave(amplitude: 0.15 * diameter, random: &random)
        wanderY = SmoothWave(amplitude: 0.15 * diameter, random: &random)
    }

    func pose(at t: Double) -> SyntheticCamera.Pose {
        let d = distance * exp(dDistance(t))
        let theta = min(60 * .pi / 180, max(0, theta0 + dTheta(t)))
        let phi = phi0 + phiRate * t
        let c = SIMD3(d * sin(theta) * cos(phi), d * sin(theta) * sin(phi), -d * cos(theta))
        let r = roll0 + roll(t)
        return SyntheticCamera.lookAt(center: c, target: SIMD3(wanderX(t), wanderY(t), 0), up: SIMD3(sin(r), -cos(r), 0))
    }
}

/// Renders gray frames of one or more codes.
struct SyntheticRenderer {
    let width: Int
    let height: Int
    private let background: [Float]
    /// Code rasters: luma 0…255 and alpha 0…1, `size`×`size`, covering SVG 0…800.
    private var codes: [(luma: [Float], alpha: [Float], size: Int)] = []

    init(width: Int, height: Int, seed: UInt64) {
        self.width = width
        self.height = height
        var random = SeededRandom(seed: seed)
        // A smooth textured background: a few low-frequency waves.
        let waves = (0..<6).map { _ in
            (Double.random(in: 0.002...0.03, using: &random), Double.random(in: 0.002...0.03, using: &random),
             Double.random(in: 0...(2 * .pi), using: &random), Double.random(in: 10...30, using: &random))
        }
        var bg = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var v = 120.0
                for (fx, fy, p, a) in waves { v += a * sin(fx * Double(x) + fy * Double(y) + p) }
                bg[y * width + x] = Float(v)
            }
        }
        background = bg
    }

    /// Adds a code; returns its index. `damage`: an angular sector (degrees, SVG angles) in which the
    /// data rings are painted over with the code's background color, so the code cannot be read.
    mutating func addCode(url: String, template: Int, size: Int = 480, damage: ClosedRange<Double>? = nil) throws -> Int {
        let palette = try Palette.template(template)
        let generator = AppClipCodeGenerator(palette: palette, logo: .camera)
        let rgba = try generator.rgba(for: url, size: size)
        var luma = [Float](repeating: 0, count: size * size), alpha = [Float](repeating: 0, count: size * size)
        let bg = palette.background.rgb
        let bgLuma = 0.299 * Float(bg >> 16 & 0xFF) + 0.587 * Float(bg >> 8 & 0xFF) + 0.114 * Float(bg & 0xFF)
        for i in 0..<(size * size) {
            let r = Float(rgba[4 * i]), g = Float(rgba[4 * i + 1]), b = Float(rgba[4 * i + 2])
            luma[i] = 0.299 * r + 0.587 * g + 0.114 * b
            alpha[i] = Float(rgba[4 * i + 3]) / 255
            if let damage {
                let u = (Double(i % size) + 0.5) * 800 / Double(size) - 400, v = (Double(i / size) + 0.5) * 800 / Double(size) - 400
                let radius = (u * u + v * v).squareRoot()
                var angle = atan2(v, u) * 180 / .pi
                if angle < 0 { angle += 360 }
                if radius > 150, radius < 390, damage.contains(angle) { luma[i] = bgLuma }
            }
        }
        codes.append((luma, alpha, size))
        return codes.count - 1
    }

    /// Renders the codes at their homographies (SVG → pixels), then blur (σ px, 0 = none), a
    /// contrast scale about the background, and Gaussian noise (σ in gray levels) around the codes.
    func render(_ placements: [(code: Int, homography: [Double])], blur: Double = 0, contrast: Float = 1,
                noise: Double = 0, random: inout SeededRandom) -> PixelBuffer {
        var img = background
        var boxes: [(Int, Int, Int, Int)] = []
        for (index, h) in placements {
            let code = codes[index]
            guard let inv = invert(h) else { continue }
            // Bounding box of the rim.
            var xs: [Double] = [], ys: [Double] = []
            for k in 0..<32 {
                let a = Double(k) * .pi / 16
                let u = 400 + 400 * cos(a), v = 400 + 400 * sin(a)
                let w = h[6] * u + h[7] * v + h[8]
                xs.append((h[0] * u + h[1] * v + h[2]) / w)
                ys.append((h[3] * u + h[4] * v + h[5]) / w)
            }
            let pad = 3 + Int(3 * blur)
            let x0 = max(0, Int((xs.min() ?? 0).rounded(.down)) - pad), x1 = min(width - 1, Int((xs.max() ?? 0).rounded(.up)) + pad)
            let y0 = max(0, Int((ys.min() ?? 0).rounded(.down)) - pad), y1 = min(height - 1, Int((ys.max() ?? 0).rounded(.up)) + pad)
            guard x0 <= x1, y0 <= y1 else { continue }
            boxes.append((x0, x1, y0, y1))
            let scale = Double(code.size) / 800
            let offsets: [(Double, Double)] = [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)]
            for y in y0...y1 {
                for x in x0...x1 {
                    var value: Float = 0, cover: Float = 0
                    for (ox, oy) in offsets {
                        let px = Double(x) + ox, py = Double(y) + oy
                        let w = inv[6] * px + inv[7] * py + inv[8]
                        let u = (inv[0] * px + inv[1] * py + inv[2]) / w * scale - 0.5
                        let v = (inv[3] * px + inv[4] * py + inv[5]) / w * scale - 0.5
                        let iu = Int(u.rounded(.down)), iv = Int(v.rounded(.down))
                        guard iu >= 0, iv >= 0, iu + 1 < code.size, iv + 1 < code.size else { continue }
                        let fu = Float(u - Double(iu)), fv = Float(v - Double(iv))
                        let i00 = iv * code.size + iu
                        let ws: [(Int, Float)] = [(i00, (1 - fu) * (1 - fv)), (i00 + 1, fu * (1 - fv)),
                                                  (i00 + code.size, (1 - fu) * fv), (i00 + code.size + 1, fu * fv)]
                        for (i, wgt) in ws {
                            value += code.luma[i] * code.alpha[i] * wgt
                            cover += code.alpha[i] * wgt
                        }
                    }
                    value /= 4
                    cover /= 4
                    let bg = img[y * width + x]
                    let over = value + (1 - cover) * bg
                    img[y * width + x] = bg + contrast * (over - bg)
                }
            }
        }
        if blur > 0 { for box in boxes { gaussianBlur(&img, box: box, sigma: blur) } }
        var out = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height) { out[i] = UInt8(max(0, min(255, img[i].rounded()))) }
        if noise > 0 {
            for (x0, x1, y0, y1) in boxes {
                let m = 24
                for y in max(0, y0 - m)...min(height - 1, y1 + m) {
                    for x in max(0, x0 - m)...min(width - 1, x1 + m) {
                        let n = gaussian(&random) * noise
                        out[y * width + x] = UInt8(max(0, min(255, (Double(img[y * width + x]) + n).rounded())))
                    }
                }
            }
        }
        // The sizes are consistent by construction.
        return (try? PixelBuffer(width: width, height: height, format: .gray8, bytesPerRow: width, pixels: out))
            ?? PixelBuffer(DecodedImage(width: width, height: height, bytesPerRow: width, format: .gray8, pixels: out))
    }

    private func gaussianBlur(_ img: inout [Float], box: (Int, Int, Int, Int), sigma: Double) {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        let kernel = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = kernel.reduce(0, +)
        let (x0, x1, y0, y1) = (max(0, box.0 - r), min(width - 1, box.1 + r), max(0, box.2 - r), min(height - 1, box.3 + r))
        var tmp = img
        for y in y0...y1 {
            for x in x0...x1 {
                var s: Float = 0
                for k in -r...r { s += kernel[k + r] * img[y * width + min(width - 1, max(0, x + k))] }
                tmp[y * width + x] = s / total
            }
        }
        for y in y0...y1 {
            for x in x0...x1 {
                var s: Float = 0
                for k in -r...r { s += kernel[k + r] * tmp[min(height - 1, max(0, y + k)) * width + x] }
                img[y * width + x] = s / total
            }
        }
    }

    private func gaussian(_ random: inout SeededRandom) -> Double {
        let u1 = max(1e-12, Double.random(in: 0..<1, using: &random)), u2 = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    private func invert(_ m: [Double]) -> [Double]? {
        let d = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(d) > 1e-300 else { return nil }
        let i = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                 m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                 m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        return i.map { $0 / d }
    }
}
