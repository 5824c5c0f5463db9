import CAppClipCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Soft ring samples of one code gathered over frames, so that a code too small or blurred to
/// read in any one frame is read from several.
///
/// Each frame's `RingObservation` is sampled in the orientation the reader picked for that frame.
/// Picks are aligned through the code's motion: a frame's orientation is measured against the
/// anchor's predicted homography (`CodeOrientation.measure`), and frames are kept in one bin per
/// distinct relative orientation. Bins are fused independently — per position, in log-odds,
/// `Σ logit(p) / √n` (the z-score of the mean: it grows with the evidence like independent
/// samples would, without the overconfidence of a plain sum on correlated frames) — and each
/// fused bin is handed to the ring codec. A bin that decodes tells the code's true orientation.
public struct RingEvidence: Sendable {
    /// The frames read in one orientation.
    public struct Bin: Sendable {
        /// Orientation relative to the reference orientation (the mean of its frames').
        public internal(set) var orientation: CodeOrientation
        /// Per frame: 256 log-odds (128 arc-start, then 128 third-color), oldest first (the window).
        public internal(set) var frames: [[Float]] = []
        var sum = [Float](repeating: 0, count: 256)
        /// Frames ever added (the window keeps the latest).
        public internal(set) var total = 0
        public internal(set) var lastFrame = -1
    }

    public private(set) var bins: [Bin] = []
    /// Fused decoding attempts made so far (each one is a chance for noise to pass the checks).
    public private(set) var attempts = 0
    public let window: Int
    public static let maxBins = 6
    /// Frames whose orientation is within this of a bin's join it.
    public static let tolerance = 3.0 * Double.pi / 180
    /// One frame's probability is kept within [clamp, 1 − clamp] so no single frame dominates.
    public static let clamp: Float = 0.03

    /// `window`: frames kept per orientation.
    public init(window: Int) { self.window = max(1, window) }

    public var framesFused: Int { bins.map(\.total).reduce(0, +) }

    /// Adds one frame's samples taken in orientation `turn` (relative to the reference).
    /// Returns the index of the bin it joined.
    @discardableResult
    public mutating func add(_ observation: RingObservation, orientation turn: CodeOrientation, frameIndex: Int) -> Int {
        var logits = [Float](repeating: 0, count: 256)
        for i in 0..<128 {
            logits[i] = RingEvidence.logit(i < observation.arcStart.count ? observation.arcStart[i] : 0.5)
            logits[128 + i] = RingEvidence.logit(i < observation.third.count ? observation.third[i] : 0.5)
        }
        var index = bins.firstIndex { bin in
            bin.orientation.mirrored == turn.mirrored && abs(CodeOrientation.wrap(bin.orientation.angle - turn.angle)) < RingEvidence.tolerance
        }
        if index == nil {
            if bins.count >= RingEvidence.maxBins, let weakest = bins.indices.min(by: { a, b in
                (bins[a].total, bins[a].lastFrame) < (bins[b].total, bins[b].lastFrame)
            }) {
                bins.remove(at: weakest)
            }
            bins.append(Bin(orientation: turn))
            index = bins.count - 1
        }
        guard let i = index else { return 0 }
        // The bin's angle follows the mean of its members (circular mean, incrementally).
        let n = Double(min(bins[i].total, window))
        let delta = CodeOrientation.wrap(turn.angle - bins[i].orientation.angle)
        bins[i].orientation = CodeOrientation(mirrored: bins[i].orientation.mirrored, angle: bins[i].orientation.angle + delta / (n + 1))
        bins[i].frames.append(logits)
        for k in 0..<256 { bins[i].sum[k] += logits[k] }
        if bins[i].frames.count > window {
            let old = bins[i].frames.removeFirst()
            for k in 0..<256 { bins[i].sum[k] -= old[k] }
        }
        bins[i].total += 1
        bins[i].lastFrame = frameIndex
        return i
    }

    /// The fused samples of a bin.
    public func fused(_ index: Int) -> RingObservation {
        let bin = bins[index]
        let scale = 1 / Float(max(1, bin.frames.count)).squareRoot()
        var arc = [Float](repeating: 0.5, count: 128), third = [Float](repeating: 0.5, count: 128)
        for i in 0..<128 {
            arc[i] = RingEvidence.sigmoid(bin.sum[i] * scale)
            third[i] = RingEvidence.sigmoid(bin.sum[128 + i] * scale)
        }
        return RingObservation(arcStart: arc, third: third)
    }

    /// Tries to decode bin `index`'s fused samples. Succeeds only when the codec accepts them with
    /// at least `26 + log2(attempts) + extraCheckBits` bits of unused checking, so that trying again
    /// frame after frame does not add up to a real chance of a wrong payload; version-8 tokens,
    /// which have no error correction, are never accepted from fused samples.
    public mutating func decode(_ index: Int, extraCheckBits: Double = 0) -> DecodedPayload? {
        guard bins.indices.contains(index), bins[index].frames.count >= 1 else { return nil }
        attempts += 1
        var o = fused(index).cValue
        var result = acc_decode_result()
        var error = acc_error()
        guard acc_codec_decode(&o, &result, &error) == ACC_OK else { return nil }
        let required = 26 + log2(Double(attempts)) + extraCheckBits
        guard result.version != 8, Double(result.check_bits) >= required else { return nil }
        return DecodedPayload(result)
    }

    /// The reference orientation becomes `reference ∘ turn`: every bin is re-expressed against it.
    public mutating func rebase(by turn: CodeOrientation) {
        let inverse = turn.inverse
        for i in bins.indices { bins[i].orientation = inverse.then(after: bins[i].orientation) }
    }

    public mutating func removeAll() {
        bins.removeAll()
    }

    static func logit(_ p: Float) -> Float {
        guard p.isFinite else { return 0 }
        let q = min(1 - clamp, max(clamp, p))
        return log(q / (1 - q))
    }

    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }
}
