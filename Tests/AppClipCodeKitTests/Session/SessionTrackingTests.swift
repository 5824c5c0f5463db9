import AppClipCodeKit
import Foundation
import Testing

/// Identifiers persist while codes are tracked; several codes with the same URL are separate
/// anchors; tracked frames are read near where each code was.
@Suite struct SessionTrackingTests {
    /// 300 frames (10 s at 30 fps) of a camera moving around two codes that hold the same URL.
    @Test func identifiersStayStableOver300FramesWithCameraMotion() async throws {
        let camera = SyntheticCamera(intrinsics: CameraIntrinsics(fx: 700, fy: 700, cx: 239.5, cy: 179.5), width: 480, height: 360)
        var renderer = SyntheticRenderer(width: 480, height: 360, seed: 11)
        let url = "https://example.com/twins"
        let left = try renderer.addCode(url: url, template: 2)
        let right = try renderer.addCode(url: url, template: 9)
        // The camera orbits the left code; the right one sits 4.5 cm to its right on the same plane.
        let path = OrbitPath(camera: camera, diameter: 0.03, apparentDiameterPx: 90, seed: 12, tiltRange: 5...25)
        let offset = SIMD3<Double>(0.045, 0, 0)
        let session = try AppClipCodeSession()
        var random = SeededRandom(seed: 13)
        var idsOnCode: [[AnchorIdentifier]] = [[], []]
        var trackedFrames = [0, 0], visibleFrames = [0, 0]
        var hinted = 0
        var lastIDs: [AnchorIdentifier?] = [nil, nil]
        var changes = 0
        for i in 0..<300 {
            let t = Double(i) / 30
            let pose = path.pose(at: t)
            // Code 2's homography: the same camera seeing a code centred at `offset`.
            var shifted = pose
            shifted.center = pose.center - offset
            let hl = camera.homography(pose, diameter: 0.03), hr = camera.homography(shifted, diameter: 0.03)
            let image = renderer.render([(left, hl), (right, hr)], blur: 0.4, noise: 3, random: &random)
            let update = try await session.process(Frame(image: image, timestamp: t, intrinsics: camera.intrinsics,
                                                          cameraTransform: pose.arkitTransform))
            if update.usedHints > 0 { hinted += 1 }
            for (k, h) in [hl, hr].enumerated() {
                let cx = (h[0] * 400 + h[1] * 400 + h[2]) / (h[6] * 400 + h[7] * 400 + h[8])
                let cy = (h[3] * 400 + h[4] * 400 + h[5]) / (h[6] * 400 + h[7] * 400 + h[8])
                let inside = (0..<16).allSatisfy { j in
                    let a = Double(j) * .pi / 8, u = 400 + 400 * cos(a), v = 400 + 400 * sin(a)
                    let w = h[6] * u + h[7] * v + h[8]
                    let x = (h[0] * u + h[1] * v + h[2]) / w, y = (h[3] * u + h[4] * v + h[5]) / w
                    return x >= 2 && y >= 2 && x < Double(camera.width) - 2 && y < Double(camera.height) - 2
                }
                if inside { visibleFrames[k] += 1 }
                guard let anchor = update.anchors.first(where: { $0.isTracked && hypot($0.image.center.x - cx, $0.image.center.y - cy) < 20 }) else { continue }
                trackedFrames[k] += 1
                if !idsOnCode[k].contains(anchor.identifier) { idsOnCode[k].append(anchor.identifier) }
                if let last = lastIDs[k], last != anchor.identifier { changes += 1 }
                lastIDs[k] = anchor.identifier
                #expect(anchor.url == nil || anchor.url == url)
            }
        }
        print("identity: tracked \(trackedFrames) of 300 frames (wholly in view in \(visibleFrames)), identifiers \(idsOnCode), changes \(changes), frames read with hints \(hinted)")
        #expect(visibleFrames[0] >= 250 && visibleFrames[1] >= 150)
        #expect(Double(trackedFrames[0]) >= 0.9 * Double(visibleFrames[0]))
        #expect(Double(trackedFrames[1]) >= 0.9 * Double(visibleFrames[1]))
        #expect(idsOnCode[0].count == 1 && idsOnCode[1].count == 1)
        #expect(Set(idsOnCode[0]).isDisjoint(with: idsOnCode[1]), "two codes with one URL are two anchors")
        #expect(changes == 0)
        #expect(hinted >= 290)
    }
}
