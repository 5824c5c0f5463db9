/// Everything the session remembers about one code (internal; anchors are snapshots of it).
struct TrackedCode: Sendable {
    let identifier: AnchorIdentifier
    /// Reported to the caller (an undecoded code is reported after a few sightings).
    var published = false
    var firstSeen: Double
    var lastSeen: Double
    var lastFrame: Int
    var framesSeen = 0

    var state: URLDecodingState = .decoding
    var payload: [UInt8] = []
    var url: String?
    var version: Int?
    var decodedInSingleFrame = false

    /// SVG → pixels at the last sighting, in the anchor's orientation.
    var homography: [Double]
    /// The sighting before, for predicting motion.
    var previousHomography: [Double]?
    var previousSeen: Double?
    var mirrored = false
    var center = Point2(x: 0, y: 0)
    var corners: [Point2] = []
    var palette: Palette
    var logo: Logo

    var evidence: RingEvidence
    var framesFused = 0

    /// Pose of a 1 m code at the last sighting (vision camera), when the frame had intrinsics.
    var unitPose: CodePose?
    /// World ← vision camera at the last sighting, when the frame had a camera pose.
    var worldFromCamera: RigidTransform?
    /// World ← code plane at the last sighting with a camera pose and a measured size.
    var worldFromCodePlane: RigidTransform?
    var triangulation = SizeTriangulation()
    var depthSizing = DepthSizing()
    var triangulatedRadius: RadiusEstimate?
    var depthRadius: RadiusEstimate?
    var transform = Matrix4x4.identity
    var hasPose = false

    init(identifier: AnchorIdentifier, detection: CodeDetection, timestamp: Double, frame: Int, fusionWindow: Int) {
        self.identifier = identifier
        firstSeen = timestamp
        lastSeen = timestamp
        lastFrame = frame
        homography = detection.homography.m
        palette = detection.palette
        logo = detection.logo
        evidence = RingEvidence(window: fusionWindow)
    }
}

extension TrackedCode {
    /// The code was read (in one frame, or from evidence fused across frames).
    mutating func markDecoded(payload: [UInt8], url: String?, version: Int?, inSingleFrame: Bool) {
        state = .decoded
        self.payload = payload
        self.url = url
        self.version = version
        decodedInSingleFrame = inSingleFrame
        evidence.removeAll()
    }
}
