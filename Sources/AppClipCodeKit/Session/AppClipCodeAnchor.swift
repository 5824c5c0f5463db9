/// A stable name for one tracked code, unique within its session.
public struct AnchorIdentifier: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: AnchorIdentifier, b: AnchorIdentifier) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "code-\(rawValue)" }
}

/// Like `ARAppClipCodeAnchor.URLDecodingState`.
public enum URLDecodingState: String, Sendable, Equatable {
    /// Evidence is still being gathered.
    case decoding
    /// A codeword passed every check; `url` (or `payload` for tokens) is set.
    case decoded
    /// No valid codeword within `SessionConfiguration.failAfter` seconds of tracking. The session keeps
    /// gathering evidence, and a failed anchor still becomes `decoded` if the code is read later.
    case failed
}

/// A physical radius and where it came from.
public struct RadiusEstimate: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        /// `SessionConfiguration.codeDiameter`: known, no uncertainty.
        case configured
        /// Triangulated from the code's image across frames with known camera poses.
        case triangulation
        /// From the depth map under the code.
        case depth
        /// Triangulation and depth together (inverse-variance weighted).
        case combined
        /// Nothing measured yet: `SessionConfiguration.assumedDiameter`.
        case assumed
    }

    /// Meters.
    public let radius: Double
    /// 1σ, meters.
    public let uncertainty: Double
    public let source: Source
    /// Frames the estimate rests on.
    public let frames: Int

    public init(radius: Double, uncertainty: Double, source: Source, frames: Int) {
        self.radius = radius
        self.uncertainty = uncertainty
        self.source = source
        self.frames = frames
    }
}

/// Where the code was in the last frame it was seen in.
public struct CodeImageGeometry: Sendable, Equatable {
    /// Timestamp of that frame.
    public let timestamp: Double
    /// Pixels.
    public let center: Point2
    /// Rim points: top, right, bottom, left in the code's own orientation.
    public let corners: [Point2]
    /// SVG units (0…800, rim radius 400) → pixels, in the anchor's orientation.
    public let homography: Homography
    /// Read from a mirror image.
    public let mirrored: Bool
}

/// One App Clip Code tracked by an `AppClipCodeSession`, like `ARAppClipCodeAnchor`: a value
/// snapshot taken after a frame.
///
/// **Axes** (see `CameraAxes`): the anchor's origin is the code center, its **y axis is the
/// normal of the printed face pointing toward the viewer**, x points to the code's right and
/// z to the code's bottom. `transform` maps anchor coordinates (meters) to the world of the
/// frames' `cameraTransform` (ARKit's world); for frames without a camera pose the world is
/// the ARKit-axes camera of the frame the anchor was last seen in.
public struct AppClipCodeAnchor: Sendable, Identifiable, Equatable {
    /// Stable while the code is tracked.
    public let identifier: AnchorIdentifier
    public var id: AnchorIdentifier { identifier }
    /// World ← anchor (column-major, ARKit axes). Identity until a pose is known (`hasPose`).
    public let transform: Matrix4x4
    /// True when `transform` comes from a pose (frames with intrinsics).
    public let hasPose: Bool
    /// Physical radius, meters (`radiusEstimate.radius`).
    public let radius: Float
    public let radiusEstimate: RadiusEstimate
    /// Size measured each way, when measured.
    public let triangulatedRadius: RadiusEstimate?
    public let depthRadius: RadiusEstimate?
    /// The decoded URL; nil until `urlDecodingState == .decoded` (and for version-8 tokens).
    public let url: String?
    public let urlDecodingState: URLDecodingState
    /// Seen in the latest frame.
    public let isTracked: Bool
    /// 16 bytes (URL) or 20 bytes (token) once decoded; empty before.
    public let payload: [UInt8]
    public let version: Int?
    /// Decoded from a single frame's reading (false: from evidence fused over several frames).
    public let decodedInSingleFrame: Bool
    /// The image geometry of the last frame the code was seen in.
    public let image: CodeImageGeometry
    /// Camera-relative pose in the last frame it was seen in (vision axes), with the current radius.
    public let pose: CodePose?
    public let palette: Palette
    public let logo: Logo
    /// When it was first and last seen, in frame timestamps.
    public let firstSeen: Double
    public let lastSeen: Double
    /// Frames it was seen in, and frames whose ring samples were fused.
    public let framesSeen: Int
    public let framesFused: Int
}
