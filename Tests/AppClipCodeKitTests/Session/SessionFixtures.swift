import AppClipCodeKit
import Foundation
import Testing

/// The committed session fixtures (Tests/Fixtures/Session, outside the test target so SwiftPM
/// does not treat them as sources), made by
/// tools/session/make_fixtures.py with tools/synth: rsvg-rendered codes through a pinhole
/// camera, ground truth in the JSON beside each frame.
enum SessionFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Session")

    static func json(_ url: URL) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw FixtureError(description: "\(url.path) is not a JSON object")
        }
        return object
    }

    static func intrinsics(_ value: Any?) throws -> CameraIntrinsics {
        guard let k = value as? [String: Any], let fx = number(k["fx"]), let fy = number(k["fy"]),
              let cx = number(k["cx"]), let cy = number(k["cy"]) else {
            throw FixtureError(description: "intrinsics missing")
        }
        return CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
    }

    static func number(_ value: Any?) -> Double? {
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return (value as? NSNumber)?.doubleValue
    }

    static func numbers(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        let out = array.compactMap(number)
        return out.count == array.count ? out : nil
    }

    /// One frame of a tools/synth sequence with its ground truth.
    struct SequenceFrame {
        var file: URL
        var timestamp: Double
        /// World ← camera in vision axes (x right, y down, z forward), row-major, as the file has it.
        var cameraToWorld: [Double]
        /// Code plane → camera: [R | t] row-major 4×4.
        var worldToCamera: [Double]
        var center: [Double]
        var diameterPx: Double
    }

    struct Sequence {
        var name: String
        var kind: String
        var url: String
        var diameter: Double
        var intrinsics: CameraIntrinsics
        var frames: [SequenceFrame]
    }

    static func sequence(_ name: String) throws -> Sequence {
        let folder = root.appendingPathComponent(name)
        let s = try json(folder.appendingPathComponent("sequence.json"))
        guard let code = s["code"] as? [String: Any], let url = code["url"] as? String, let d = number(code["diameter_m"]),
              let frames = s["frames"] as? [[String: Any]] else {
            throw FixtureError(description: "\(name)/sequence.json lacks code or frames")
        }
        let k = try intrinsics(s["intrinsics"])
        let list = try frames.map { f -> SequenceFrame in
            guard let file = f["file"] as? String, let t = number(f["t_s"]), let ctw = numbers(f["camera_to_world"]),
                  let wtc = numbers(f["world_to_camera"]), let c = numbers(f["center"]), let dpx = number(f["diameter_px"])
            else { throw FixtureError(description: "\(name): a frame lacks its ground truth") }
            return SequenceFrame(file: folder.appendingPathComponent(file), timestamp: t, cameraToWorld: ctw,
                                 worldToCamera: wtc, center: c, diameterPx: dpx)
        }
        return Sequence(name: name, kind: s["kind"] as? String ?? name, url: url, diameter: d, intrinsics: k, frames: list)
    }

    /// ARKit's form of a tools/synth camera pose (world ← vision camera, row-major).
    static func arkitTransform(_ cameraToWorld: [Double]) throws -> Matrix4x4 {
        guard let vision = Matrix4x4(rowMajor: cameraToWorld.map { Float($0) }) else {
            throw FixtureError(description: "camera_to_world needs 16 numbers")
        }
        return CameraAxes.arkitCameraPose(fromVision: vision)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func angleDegrees(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let c = (a * b).sum() / (((a * a).sum() * (b * b).sum()).squareRoot())
    return acos(max(-1, min(1, c))) * 180 / .pi
}

func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
