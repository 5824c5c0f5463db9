import AppClipCodeKit
import ArgumentParser

/// `--intrinsics fx,fy,cx,cy` (pixels, pixel (0,0) the center of the top-left pixel).
func parseIntrinsics(_ text: String) throws -> CameraIntrinsics {
    let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let fx = parts[0], let fy = parts[1], let cx = parts[2], let cy = parts[3] else {
        throw ValidationError("--intrinsics takes four numbers: fx,fy,cx,cy")
    }
    let k = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
    guard k.isValid else { throw ValidationError("--intrinsics needs positive focal lengths") }
    return k
}

/// The "pose" object of decode's and track's JSON:
/// center_camera_m and normal_camera in vision camera axes (x right, y down, z forward; the
/// normal points out of the printed face, toward the camera); transform = camera ← anchor in
/// ARKit's axes (anchor y = face normal, x = code right, z = code bottom; camera x right, y up,
/// z backward), 16 numbers column-major like simd_float4x4.
func poseJSON(_ pose: CodePose) -> JSONValue {
    func r(_ v: Double, _ digits: Double) -> JSONValue { .number((v * digits).rounded() / digits) }
    let c = pose.centerCamera, n = pose.normalCamera
    return .object([
        ("center_camera_m", .array([r(c.x, 1e6), r(c.y, 1e6), r(c.z, 1e6)])),
        ("normal_camera", .array([r(n.x, 1e6), r(n.y, 1e6), r(n.z, 1e6)])),
        ("transform", .array(pose.transformInARKitCamera.columnMajor.map { r(Double($0), 1e6) })),
        ("diameter_m", r(pose.diameter, 1e6)),
        ("center_sigma_m", r(pose.centerUncertainty, 1e6)),
        ("normal_sigma_deg", r(pose.normalUncertaintyDegrees, 1e3)),
    ])
}
