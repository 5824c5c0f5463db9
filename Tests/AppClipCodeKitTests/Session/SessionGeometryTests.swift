import AppClipCodeKit
import Foundation
import Testing

/// Axis conventions, pose from a homography and code orientations, checked against known
/// geometry and tools/synth's ground truth (never against the code under test).
@Suite struct SessionGeometryTests {
    @Test func matrixLayoutsMatchSimd() {
        let rowMajor: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 1]
        let m = Matrix4x4(rowMajor: rowMajor)
        #expect(m?.columns.3 == SIMD4(4, 8, 12, 1))      // translation column, like simd_float4x4
        #expect(m?[0, 1] == 5)                           // column 0, row 1
        #expect(m?.columnMajor == [1, 5, 9, 0, 2, 6, 10, 0, 3, 7, 11, 0, 4, 8, 12, 1])
        #expect(Matrix4x4(columnMajor: m?.columnMajor ?? []) == m)
        #expect(Matrix4x4(rowMajor: [1, 2]) == nil)
    }

    /// ARKit's camera looks down its −z with y up; the vision camera looks down +z with y down.
    @Test func cameraAxesConvertBothWays() throws {
        // A camera at (1, 2, 3) in the world, in vision axes, turned 90° about world y.
        let vision = try #require(Matrix4x4(rowMajor: [0, 0, 1, 1, 0, 1, 0, 2, -1, 0, 0, 3, 0, 0, 0, 1]))
        let arkit = CameraAxes.arkitCameraPose(fromVision: vision)
        #expect(CameraAxes.visionCameraPose(fromARKit: arkit) == vision)
        // ARKit's forward (−z) is vision's +z: world (1, 0, 0) here; ARKit's up (+y) is vision's −y.
        #expect(-SIMD3(arkit.columns.2.x, arkit.columns.2.y, arkit.columns.2.z) == SIMD3(1, 0, 0))
        #expect(SIMD3(arkit.columns.1.x, arkit.columns.1.y, arkit.columns.1.z) == SIMD3(0, -1, 0))
        #expect(arkit.translation == SIMD3(1, 2, 3))
        // A point 2 m in front of the lens.
        #expect(CameraAxes.flip(SIMD3(0, 0, 2)) == SIMD3(0, 0, -2))
    }

    /// The pose from the TRUE homography of tools/synth frames is the true pose (conventions).
    @Test func poseFromTrueHomographyIsTheTruePose() throws {
        let folder = SessionFixtures.root.appendingPathComponent("pose")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("pose_") && $0.hasSuffix(".json") }
        #expect(names.count >= 5)
        for name in names {
            let truth = try SessionFixtures.json(folder.appendingPathComponent(name))
            let k = try SessionFixtures.intrinsics(truth["intrinsics"])
            let code = try #require((truth["codes"] as? [[String: Any]])?.first)
            let h = try #require(SessionFixtures.numbers(code["homography"]).flatMap(Homography.init(rowMajor:)))
            let d = try #require(SessionFixtures.number(code["diameter_m"]))
            let pose = try #require((code["pose"] as? [String: Any]))
            let r = try #require(SessionFixtures.numbers(pose["rotation"]))
            let t = try #require(SessionFixtures.numbers(pose["translation"]))
            let estimate = try CodePose.estimate(homography: h, intrinsics: k, diameter: d)
            let tTrue = SIMD3(t[0], t[1], t[2])
            // The truth homography is rounded in the file; a millionth of the distance is far below it.
            #expect(norm(estimate.centerCamera - tTrue) / norm(tTrue) < 1e-4, "\(name)")
            let nTrue = SIMD3(-r[2], -r[5], -r[8])
            #expect(angleDegrees(estimate.normalCamera, nTrue) < 0.01, "\(name)")
            // The normal faces the camera.
            #expect((estimate.normalCamera * estimate.centerCamera).sum() < 0)

            // The anchor transform in ARKit's camera: y = face normal, x = code right, z = code bottom.
            let m = estimate.transformInARKitCamera
            func column(_ c: SIMD4<Float>) -> SIMD3<Double> { SIMD3(Double(c.x), Double(c.y), Double(c.z)) }
            let flip = SIMD3<Double>(1, -1, -1)
            #expect(angleDegrees(column(m.columns.1), nTrue * flip) < 0.01)
            #expect(angleDegrees(column(m.columns.0), SIMD3(r[0], r[3], r[6]) * flip) < 0.01)
            #expect(angleDegrees(column(m.columns.2), SIMD3(r[1], r[4], r[7]) * flip) < 0.01)
            #expect(norm(column(m.columns.3) - tTrue * flip) / norm(tTrue) < 1e-4)
        }
    }

    /// A small, nearly frontal code with a noisy homography: the refined pose must still put the
    /// code's center on the homography's center (a regression test for the refinement's Jacobian).
    @Test func refinedPoseStaysOnTheHomography() throws {
        let k = CameraIntrinsics(fx: 918, fy: 918, cx: 651, cy: 355)
        var random = SeededRandom(seed: 5)
        for trial in 0..<40 {
            let camera = SyntheticCamera(intrinsics: k, width: 1280, height: 720)
            let path = OrbitPath(camera: camera, diameter: 0.034, apparentDiameterPx: Double.random(in: 50...90, using: &random),
                                 seed: UInt64(trial), tiltRange: 0...6)
            var h = camera.homography(path.pose(at: 0), diameter: 0.034)
            // Perspective terms are what noise disturbs most for small frontal codes.
            h[6] += Double.random(in: -2e-4...2e-4, using: &random) * h[8] / 400
            h[7] += Double.random(in: -2e-4...2e-4, using: &random) * h[8] / 400
            let homography = try #require(Homography(rowMajor: h))
            let pose = try CodePose.estimate(homography: homography, intrinsics: k, diameter: 0.034)
            let c = pose.centerCamera
            let projected = Point2(x: k.fx * c.x / c.z + k.cx, y: k.fy * c.y / c.z + k.cy)
            let center = try #require(homography.apply(Point2(x: 400, y: 400)))
            #expect(hypot(projected.x - center.x, projected.y - center.y) < 1.0, "trial \(trial)")
        }
    }

    @Test func orientationsCompose() throws {
        let camera = SyntheticCamera(intrinsics: CameraIntrinsics(fx: 900, fy: 900, cx: 640, cy: 360), width: 1280, height: 720)
        let reference = try #require(Homography(rowMajor: camera.homography(
            OrbitPath(camera: camera, diameter: 0.04, apparentDiameterPx: 200, seed: 3).pose(at: 0), diameter: 0.04)))
        var random = SeededRandom(seed: 9)
        for _ in 0..<50 {
            let turn = CodeOrientation(mirrored: Bool.random(using: &random), angle: Double.random(in: -3...3, using: &random))
            let a = reference.m, b = turn.svgMatrix
            var product = [Double](repeating: 0, count: 9)
            for r in 0..<3 {
                for c in 0..<3 {
                    var sum = 0.0
                    for i in 0..<3 { sum += a[r * 3 + i] * b[i * 3 + c] }
                    product[r * 3 + c] = sum
                }
            }
            let detection = try #require(Homography(rowMajor: product))
            let measured = try #require(CodeOrientation.measure(reference: reference, detection: detection))
            #expect(measured.mirrored == turn.mirrored)
            #expect(abs(CodeOrientation.wrap(measured.angle - turn.angle)) < 1e-6)
            let other = CodeOrientation(mirrored: Bool.random(using: &random), angle: Double.random(in: -3...3, using: &random))
            let roundTrip = turn.inverse.then(after: turn.then(after: other))
            #expect(roundTrip.mirrored == other.mirrored)
            #expect(abs(CodeOrientation.wrap(roundTrip.angle - other.angle)) < 1e-9)
        }
    }
}
