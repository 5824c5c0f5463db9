import AppClipCodeKit
import Foundation
import Testing

/// Issue 4, "pose and size": the physical radius from camera poses across frames (triangulation)
/// and from a depth map, each with an uncertainty, on a tools/synth sequence (rsvg frames,
/// per-frame camera poses in sequence.json).
@Suite struct SessionSizeTests {
    /// Runs the orbit fixture through a session that is not told the code's size.
    static func runOrbit(depthNoise: Double? = nil, poses: Bool = true) async throws
        -> (sequence: SessionFixtures.Sequence, updates: [FrameUpdate]) {
        let sequence = try SessionFixtures.sequence("orbit")
        let session = try AppClipCodeSession()
        var updates: [FrameUpdate] = []
        var random = SeededRandom(seed: 77)
        for f in sequence.frames {
            let image = try DecodedImage(contentsOfFile: f.file.path)
            var frame = Frame(image: image, timestamp: f.timestamp, intrinsics: sequence.intrinsics,
                              cameraTransform: poses ? try SessionFixtures.arkitTransform(f.cameraToWorld) : nil)
            if let noise = depthNoise {
                frame.depth = try planeDepth(worldToCamera: f.worldToCamera, intrinsics: sequence.intrinsics,
                                             imageWidth: image.width, imageHeight: image.height, noise: noise, random: &random)
            }
            updates.append(try await session.process(frame))
        }
        return (sequence, updates)
    }

    /// Depth of the code's plane (the world z = 0 plane of tools/synth sequences) as a 4:1 smaller
    /// map, like ARKit's scene depth, with Gaussian noise (meters, 1σ) per depth pixel.
    static func planeDepth(worldToCamera m: [Double], intrinsics k: CameraIntrinsics, imageWidth: Int, imageHeight: Int,
                           noise: Double, random: inout SeededRandom) throws -> DepthMap {
        let w = imageWidth / 4, h = imageHeight / 4
        // Plane normal (world z) and a point on it (world origin), in camera coordinates.
        let n = SIMD3(m[2], m[6], m[10]), t = SIMD3(m[3], m[7], m[11])
        var values = [Float](repeating: 0, count: w * h)
        for j in 0..<h {
            for i in 0..<w {
                let x = (Double(i) + 0.5) * Double(imageWidth) / Double(w) - 0.5
                let y = (Double(j) + 0.5) * Double(imageHeight) / Double(h) - 0.5
                let ray = SIMD3((x - k.cx) / k.fx, (y - k.cy) / k.fy, 1)
                let z = (n * t).sum() / (n * ray).sum()
                let u1 = max(1e-12, Double.random(in: 0..<1, using: &random)), u2 = Double.random(in: 0..<1, using: &random)
                let g = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                values[j * w + i] = z > 0 ? Float(z + noise * g) : 0
            }
        }
        return try DepthMap(width: w, height: h, meters: values)
    }

    /// The anchor sitting on the true code in frame `index`.
    static func anchorOnCode(_ update: FrameUpdate, _ frame: SessionFixtures.SequenceFrame) -> AppClipCodeAnchor? {
        update.anchors.first { $0.isTracked && hypot($0.image.center.x - frame.center[0], $0.image.center.y - frame.center[1]) < 0.3 * frame.diameterPx }
    }

    @Test func radiusByTriangulationWithin3PercentAfter10Frames() async throws {
        let (sequence, updates) = try await Self.runOrbit()
        var tracked = 0
        var checked = false
        for (update, frame) in zip(updates, sequence.frames) {
            guard let anchor = Self.anchorOnCode(update, frame) else { continue }
            tracked += 1
            guard tracked == 10 else { continue }
            let estimate = try #require(anchor.triangulatedRadius)
            let truth = sequence.diameter / 2
            let error = abs(estimate.radius / truth - 1)
            print("triangulated radius after 10 frames: \(estimate.radius) m (truth \(truth) m, error \(error * 100) %, 1σ \(estimate.uncertainty / truth * 100) %)")
            #expect(error <= 0.03)
            #expect(estimate.uncertainty > 0 && estimate.uncertainty < 0.03 * truth)
            // The measured size is the anchor's size, and places it in the world: the world of the
            // sequence is the code's own frame, so the anchor sits at its origin with y = −z (out of the face).
            #expect(anchor.radiusEstimate.source == .triangulation)
            let position = SIMD3(Double(anchor.transform.translation.x), Double(anchor.transform.translation.y),
                                 Double(anchor.transform.translation.z))
            let distance = norm(SIMD3(frame.cameraToWorld[3], frame.cameraToWorld[7], frame.cameraToWorld[11]))
            #expect(norm(position) < 0.02 * distance)
            let y = anchor.transform.columns.1
            #expect(angleDegrees(SIMD3(Double(y.x), Double(y.y), Double(y.z)), SIMD3(0, 0, -1)) < 2)
            checked = true
        }
        #expect(checked, "the code was tracked in \(tracked) frames")
    }

    @Test func radiusFromDepthWithin3Percent() async throws {
        let (sequence, updates) = try await Self.runOrbit(depthNoise: 0.005, poses: false)
        var tracked = 0
        var checked = false
        for (update, frame) in zip(updates, sequence.frames) {
            guard let anchor = Self.anchorOnCode(update, frame) else { continue }
            tracked += 1
            #expect(anchor.triangulatedRadius == nil)   // no camera poses
            guard tracked == 10 else { continue }
            let estimate = try #require(anchor.depthRadius)
            let truth = sequence.diameter / 2
            let error = abs(estimate.radius / truth - 1)
            print("radius from depth after 10 frames: \(estimate.radius) m (truth \(truth) m, error \(error * 100) %, 1σ \(estimate.uncertainty / truth * 100) %)")
            #expect(error <= 0.03)
            #expect(abs(estimate.radius - truth) <= 3 * estimate.uncertainty + 0.002 * truth)
            #expect(anchor.radiusEstimate.source == .depth)
            checked = true
        }
        #expect(checked, "the code was tracked in \(tracked) frames")
    }

    /// Without camera motion there is no parallax: the size is not claimed.
    @Test func aStillCameraMeasuresNoSize() async throws {
        let sequence = try SessionFixtures.sequence("orbit")
        let session = try AppClipCodeSession()
        let f = sequence.frames[0]
        let image = try DecodedImage(contentsOfFile: f.file.path)
        var last: FrameUpdate?
        for i in 0..<10 {
            last = try await session.process(Frame(image: image, timestamp: Double(i) / 30, intrinsics: sequence.intrinsics,
                                                   cameraTransform: try SessionFixtures.arkitTransform(f.cameraToWorld)))
        }
        let anchor = try #require(last?.anchors.first)
        #expect(anchor.radiusEstimate.source == .assumed)
    }
}
