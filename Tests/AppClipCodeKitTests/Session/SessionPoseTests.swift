import AppClipCodeKit
import Foundation
import Testing

/// Issue 4, "pose and size": on frames rendered by tools/synth (rsvg, independent of the
/// project's renderer) with known intrinsics and pose, the pose of codes ≥ 100 px from the
/// reader's homography is within 1 % of the distance (center) and 1.5° (normal), medians.
@Suite struct SessionPoseTests {
    @Test func poseOfCodesOf100PixelsOrMore() throws {
        let folder = SessionFixtures.root.appendingPathComponent("pose")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("pose_") && $0.hasSuffix(".json") }.sorted()
        var reader = try AppClipCodeReader()
        var centerErrors: [Double] = [], normalErrors: [Double] = [], codes = 0
        for name in names {
            let truth = try SessionFixtures.json(folder.appendingPathComponent(name))
            let k = try SessionFixtures.intrinsics(truth["intrinsics"])
            let code = try #require((truth["codes"] as? [[String: Any]])?.first)
            guard let dpx = SessionFixtures.number(code["diameter_px"]), dpx >= 100 else { continue }
            codes += 1
            let d = try #require(SessionFixtures.number(code["diameter_m"]))
            let center = try #require(SessionFixtures.numbers(code["center"]))
            let pose = try #require(code["pose"] as? [String: Any])
            let r = try #require(SessionFixtures.numbers(pose["rotation"]))
            let t = try #require(SessionFixtures.numbers(pose["translation"]))
            let file = try #require(truth["file"] as? String)
            let image = try DecodedImage(contentsOfFile: folder.appendingPathComponent(file).path)
            let read = try reader.read(image)
            guard let found = read.codes.first(where: { hypot($0.center.x - center[0], $0.center.y - center[1]) < 0.25 * dpx }) else {
                print("pose fixture \(name): not located by the reader")
                continue
            }
            let estimate = try CodePose.estimate(homography: found.homography, intrinsics: k, diameter: d)
            let tTrue = SIMD3(t[0], t[1], t[2])
            centerErrors.append(norm(estimate.centerCamera - tTrue) / norm(tTrue))
            normalErrors.append(angleDegrees(estimate.normalCamera, SIMD3(-r[2], -r[5], -r[8])))
        }
        print("pose fixtures: \(centerErrors.count)/\(codes) codes located; center error median \(median(centerErrors) * 100) % of the distance, normal error median \(median(normalErrors))°")
        #expect(codes >= 8)
        // Accuracy is measured on located codes; the reader must locate most of them for it to mean anything.
        #expect(centerErrors.count * 2 >= codes)
        #expect(median(centerErrors) <= 0.01)
        #expect(median(normalErrors) <= 1.5)
    }
}
