import CAppClipCore

/// How the reader searches a frame (AprilTag-style knobs).
public struct ReaderOptions: Sendable, Equatable {
    /// At most this many codes per frame.
    public var maxCodes: Int
    /// Smallest code diameter looked for, in pixels.
    public var minDiameter: Int
    /// ≥ 1: locate on an image reduced by this factor; 0 chooses automatically.
    public var decimate: Float
    /// Also read mirror images (front camera).
    public var tryMirrored: Bool
    /// Refuse larger images.
    public var maxImagePixels: Int
    /// For video: also align the strongest candidates the edge fit cannot trace (codes a few
    /// dozen pixels across, noisy frames) and report codes found that way as failed
    /// (located, unread), so a session can read them over several frames. Costs time on
    /// frames without a code; off for single images.
    public var acquireUnread: Bool

    public init() {
        var o = acc_detector_options()
        acc_detector_options_default(&o)
        self.init(o)
    }

    init(_ o: acc_detector_options) {
        maxCodes = Int(o.max_codes)
        minDiameter = Int(o.min_diameter_px)
        decimate = o.decimate
        tryMirrored = o.try_mirrored != 0
        maxImagePixels = Int(o.max_image_pixels)
        acquireUnread = o.acquire_unread != 0
    }

    var cValue: acc_detector_options {
        var o = acc_detector_options()
        o.max_codes = Int32(clamping: maxCodes)
        o.min_diameter_px = Int32(clamping: minDiameter)
        o.decimate = decimate
        o.try_mirrored = tryMirrored ? 1 : 0
        o.max_image_pixels = Int32(clamping: maxImagePixels)
        o.acquire_unread = acquireUnread ? 1 : 0
        return o
    }
}

/// One code found in a frame.
public struct CodeDetection: Sendable {
    public enum State: Sendable, Equatable {
        case decoded
        /// Located, but not read: the reason says why.
        case failed(reason: AppClipCodeError.Kind)
    }

    public let state: State
    /// The URL (decoded URL codes only).
    public let url: String?
    /// 16 bytes (URL) or 20 bytes (version-8 token); empty when failed.
    public let payload: [UInt8]
    public let version: Int?
    public let center: Point2
    /// The rim's top, right, bottom and left points, in the code's own orientation.
    public let corners: [Point2]
    /// Code plane (SVG units 0…800) → pixels.
    public let homography: Homography
    public let palette: Palette
    public let logo: Logo
    public let mirrored: Bool
    public let confidence: Float
    public let correctedSymbols: Int
    public let erasures: Int
    public let decisionMargin: Float
    /// The soft samples, for accumulating evidence across frames.
    public let observation: RingObservation
    /// A failed code whose plane comes from ring alignment alone (small or noisy codes, no
    /// stroke edges): its scale can sit one ring spacing off, so no size should be taken from it.
    public let alignedOnly: Bool

    init(_ d: acc_detection) {
        if d.state == ACC_STATE_DECODED {
            state = .decoded
        } else {
            let name = String(cString: acc_status_name(d.failure))
            state = .failed(reason: AppClipCodeError.Kind(rawValue: name) ?? .unknown)
        }
        // Fields are read in place: the detection (with its URL buffer and ring samples) is not copied.
        if state == .decoded {
            let urlText = withUnsafeBytes(of: d.url) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            url = urlText.isEmpty ? nil : urlText
        } else {
            url = nil
        }
        payload = withUnsafeBytes(of: d.payload) { Array($0.prefix(Int(max(0, min(d.payload_length, 20))))) }
        version = d.version >= 0 ? Int(d.version) : nil
        center = Point2(x: d.center.0, y: d.center.1)
        corners = [
            Point2(x: d.corners.0.0, y: d.corners.0.1), Point2(x: d.corners.1.0, y: d.corners.1.1),
            Point2(x: d.corners.2.0, y: d.corners.2.1), Point2(x: d.corners.3.0, y: d.corners.3.1),
        ]
        let h = withUnsafeBytes(of: d.homography) { Array($0.bindMemory(to: Double.self)) }
        homography = Homography(rowMajor: h) ?? .identity
        palette = Palette(d.palette)
        logo = Logo(d.logo)
        mirrored = d.mirrored != 0
        confidence = d.confidence
        correctedSymbols = Int(d.corrected_symbols)
        erasures = Int(d.erasures)
        decisionMargin = d.decision_margin
        observation = RingObservation(d.observation)
        alignedOnly = d.aligned_only != 0
    }
}

/// Where the time of one frame went.
public struct FrameStatistics: Sendable, Equatable {
    public var locateMilliseconds = 0.0
    public var fitMilliseconds = 0.0
    public var sampleMilliseconds = 0.0
    public var decodeMilliseconds = 0.0
    public var totalMilliseconds = 0.0
    public var candidates = 0

    public init() {}

    init(_ s: acc_frame_stats) {
        locateMilliseconds = s.locate_ms
        fitMilliseconds = s.fit_ms
        sampleMilliseconds = s.sample_ms
        decodeMilliseconds = s.decode_ms
        totalMilliseconds = s.total_ms
        candidates = Int(s.candidates)
    }
}

public struct ReadResult: Sendable {
    public let codes: [CodeDetection]
    public let statistics: FrameStatistics
}

/// Finds and reads every App Clip Code in images. One reader per thread of work:
/// it owns its scratch memory and is reused frame after frame without allocating.
/// It is a unique value (`~Copyable`), so it can move between threads but never be
/// used by two at once.
public struct AppClipCodeReader: ~Copyable, @unchecked Sendable {
    // @unchecked: the pointer is uniquely owned (noncopyable) and only used through
    // `mutating` methods, so no two threads can reach the detector at once.
    private let detector: OpaquePointer
    public let options: ReaderOptions
    // Reused frame after frame so reading allocates no result or hint buffer once warm.
    private var detections: [acc_detection]
    private var searchHints: [acc_search_hint] = []

    public init(options: ReaderOptions = ReaderOptions()) throws(AppClipCodeError) {
        var o = options.cValue
        guard let d = acc_detector_create(&o) else {
            throw AppClipCodeError(kind: .invalidArgument, message: "could not create a detector with these options")
        }
        detector = d
        self.options = options
        detections = [acc_detection](repeating: acc_detection(), count: max(1, options.maxCodes))
    }

    deinit { acc_detector_destroy(detector) }

    /// Reads every code in `image`. Codes near `hints` (last frame's homographies)
    /// are looked for first.
    public mutating func read(_ image: ImageView, hints: [Homography] = []) throws(AppClipCodeError) -> ReadResult {
        var view = image.cValue
        searchHints.removeAll(keepingCapacity: true)
        for h in hints {
            var hint = acc_search_hint()
            withUnsafeMutableBytes(of: &hint.homography) { raw in
                let d = raw.bindMemory(to: Double.self)
                for i in 0..<9 { d[i] = h.m[i] }
            }
            searchHints.append(hint)
        }
        let capacity = detections.count
        var count: Int32 = 0
        var stats = acc_frame_stats()
        let detector = self.detector
        try check { error in
            searchHints.withUnsafeMutableBufferPointer { hintBuffer in
                detections.withUnsafeMutableBufferPointer { results in
                    acc_detector_detect(detector, &view, hintBuffer.baseAddress, Int32(hintBuffer.count),
                                        results.baseAddress, Int32(capacity), &count, &stats, error)
                }
            }
        }
        let codes = detections.prefix(Int(count)).map(CodeDetection.init)
        return ReadResult(codes: codes, statistics: FrameStatistics(stats))
    }

    /// Reads a frame's planes: gray, colour, or NV12/NV21 as a camera delivers them.
    public mutating func read(_ frame: PixelBuffer, hints: [Homography] = []) throws(AppClipCodeError) -> ReadResult {
        try frame.withView { (view) throws(AppClipCodeError) in try read(view, hints: hints) }
    }

    /// Reads a decoded image (its pixels are shared, not copied).
    public mutating func read(_ image: DecodedImage, hints: [Homography] = []) throws(AppClipCodeError) -> ReadResult {
        try read(PixelBuffer(image), hints: hints)
    }
}
