import AppClipCodeKit
import Foundation
import Testing

#if DEBUG
private let optimized = false
#else
private let optimized = true
#endif

/// Issue 4, "tracking": a tracked frame (the code was found in the previous frame) takes at most
/// 1.5 ms (median) at 1280×720, and the session keeps up with 60 fps for one code.
/// Timing means something only in an optimized build on one core:
///   taskset -c 0 swift test -c release --scratch-path .build-session --filter SessionPerformance
@Suite struct SessionPerformanceTests {
    @Test(.enabled(if: optimized, "timing is measured in release builds"))
    func trackedFramesAt720pAnd60FPS() async throws {
        let camera = SyntheticCamera(intrinsics: CameraIntrinsics(fx: 1000, fy: 1000, cx: 639.5, cy: 359.5), width: 1280, height: 720)
        var renderer = SyntheticRenderer(width: 1280, height: 720, seed: 31)
        let code = try renderer.addCode(url: "https://example.com/fast?sku=1234", template: 0)
        let path = OrbitPath(camera: camera, diameter: 0.04, apparentDiameterPx: 220, seed: 32)
        let session = try AppClipCodeSession()
        var random = SeededRandom(seed: 33)
        var tracked: [Double] = [], all: [Double] = []
        var wasTracked = false
        let clock = ContinuousClock()
        for i in 0..<300 {
            let t = Double(i) / 60
            let pose = path.pose(at: t)
            let frame = Frame(image: renderer.render([(code, camera.homography(pose, diameter: 0.04))], blur: 0.4, noise: 2, random: &random),
                              timestamp: t, intrinsics: camera.intrinsics, cameraTransform: pose.arkitTransform)
            var update: FrameUpdate?
            let elapsed = try await clock.measure { update = try await session.process(frame) }
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            all.append(ms)
            if wasTracked { tracked.append(ms) }
            wasTracked = update?.anchors.contains { $0.isTracked } ?? false
        }
        let mean = all.reduce(0, +) / Double(all.count)
        let p90 = tracked.sorted()[Int(0.9 * Double(tracked.count - 1))]
        print("timing 1280x720: tracked frames \(tracked.count), median \(median(tracked)) ms, p90 \(p90) ms; all frames mean \(mean) ms (\(1000 / mean) frames/s)")
        #expect(tracked.count >= 290)
        #expect(median(tracked) <= 1.5)
        #expect(mean <= 1000.0 / 60)
    }
}
