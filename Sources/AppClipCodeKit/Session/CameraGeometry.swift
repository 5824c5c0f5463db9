/// A pinhole camera: focal lengths and principal point in pixels, with pixel (0, 0) the
/// CENTER of the top-left pixel (OpenCV's convention, the one `tools/synth` writes).
public struct CameraIntrinsics: Sendable, Hashable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double

    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }

    /// Positive finite focal lengths and a finite principal point.
    public var isValid: Bool {
        fx > 0 && fy > 0 && fx.isFinite && fy.isFinite && cx.isFinite && cy.isFinite
    }

    /// The intrinsics of the same camera after the image is scaled by `sx`, `sy`
    /// (pixel centers stay pixel centers).
    public func scaled(x sx: Double, y sy: Double) -> CameraIntrinsics {
        CameraIntrinsics(fx: fx * sx, fy: fy * sy, cx: (cx + 0.5) * sx - 0.5, cy: (cy + 0.5) * sy - 0.5)
    }
}

/// The two camera axis conventions the session meets, and the code's own axes.
///
/// - **Vision** (OpenCV, `acc_pose`, `tools/synth`): x right, y down, z forward (out of the lens).
/// - **ARKit** (`ARCamera.transform`, anchor transforms): x right, y up, z backward (toward the viewer).
///   A point's coordinates convert with `diag(1, -1, -1)` in either direction.
/// - **Code plane** (`acc_pose`'s "code plane"): origin at the code center, x toward the code's
///   right (SVG +u), y toward its bottom (SVG +v), z into the printed face.
/// - **Anchor** (like `ARAppClipCodeAnchor`): origin at the code center, **y the face normal pointing
///   out of the printed face** (toward a viewer), x toward the code's right (SVG +u) and z toward the
///   code's bottom (SVG +v), so x × y = z. In code-plane coordinates: x_anchor = (1, 0, 0),
///   y_anchor = (0, 0, −1), z_anchor = (0, 1, 0).
public enum CameraAxes {
    /// ARKit camera ⇄ vision camera (the same matrix both ways).
    public static let flipYZ = Matrix4x4(
        SIMD4(1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1))

    /// Converts ARKit's camera pose (world ← ARKit camera) to world ← vision camera.
    public static func visionCameraPose(fromARKit worldFromCamera: Matrix4x4) -> Matrix4x4 {
        worldFromCamera * flipYZ
    }

    /// Converts a world ← vision camera pose (as `tools/synth` writes) to ARKit's form.
    public static func arkitCameraPose(fromVision worldFromCamera: Matrix4x4) -> Matrix4x4 {
        worldFromCamera * flipYZ
    }

    /// A point in vision camera coordinates expressed in ARKit camera coordinates (and back).
    public static func flip(_ p: SIMD3<Float>) -> SIMD3<Float> { SIMD3(p.x, -p.y, -p.z) }

    static let flipYZ3 = Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1])

    /// Code plane ← anchor: columns are the anchor axes in code-plane coordinates.
    static let codePlaneFromAnchor = Matrix3(rowMajor: [1, 0, 0, 0, 0, 1, 0, -1, 0])
}
