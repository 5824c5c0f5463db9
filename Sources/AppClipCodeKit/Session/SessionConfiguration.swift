/// How an `AppClipCodeSession` tracks, decodes and measures codes.
public struct SessionConfiguration: Sendable, Equatable {
    /// Seconds of tracking without a valid codeword before an anchor's state becomes `.failed`.
    public var failAfter: Double = 2.0
    /// Seconds without a sighting before an anchor is removed.
    public var removeAfter: Double = 1.5
    /// The printed diameter, meters, when known (all codes of the session share it). With it
    /// the pose is metric from the first frame; without it the size is triangulated (camera
    /// poses) or read from depth.
    public var codeDiameter: Double?
    /// The diameter assumed for placing anchors before any size is measured, meters.
    public var assumedDiameter: Double = 0.04
    /// Frames of ring samples fused per orientation (the most recent ones are kept).
    public var fusionWindow: Int = 45
    /// Fused decoding is tried only once this many frames are fused for one orientation.
    public var minimumFusedFrames: Int = 2
    /// An anchor that was never decoded is only created after this many sightings within
    /// `removeAfter` of each other (decoded sightings create one at once).
    public var sightingsBeforeUndecodedAnchor: Int = 2
    /// Extra unused checking (bits) a fused decode must keep beyond the codec's own budget, on top of
    /// log2 of the number of fused decoding attempts made for the anchor.
    public var fusedDecodeExtraCheckBits: Double = 4
    /// 1σ pixel noise of the fitted rim and ring points, for pose uncertainties.
    public var pixelNoise: Double = PoseEstimation.defaultPixelNoise
    /// The reader's options (the session lowers the minimum diameter so small codes are kept,
    /// and acquires codes it cannot yet read so their frames can be fused).
    public var reader: ReaderOptions = {
        var options = ReaderOptions()
        options.minDiameter = 20
        options.acquireUnread = true
        return options
    }()
    /// Events kept for a slow `events` consumer before the oldest are dropped.
    public var eventBufferLimit: Int = 1024

    public init() {}
}
