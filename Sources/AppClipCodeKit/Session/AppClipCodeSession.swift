/// Reads a stream of camera frames and keeps anchors for the App Clip Codes in them, like
/// ARKit's App Clip Code tracking: identifiers that persist while a code is tracked, a URL
/// decoding state that moves from `decoding` to `decoded` or `failed`, and where each code is
/// in space.
///
/// ```swift
/// let session = try AppClipCodeSession(configuration: .init())
/// Task { for await event in session.events { … } }          // or: await session.setDelegate(self)
/// let update = try await session.process(Frame(image: buffer, timestamp: t, intrinsics: k,
///                                              cameraTransform: arCamera.transform))
/// ```
///
/// Frames may come from any thread; the session is an actor and reads them one at a time, in
/// the order their `process` calls reach it. Each frame is read near where every tracked code
/// was (predicted from its last homographies, or from its world pose and the camera pose) before
/// the whole frame is searched; codes not read in any one frame are read from ring samples
/// fused across frames (`RingEvidence`).
public actor AppClipCodeSession {
    public let configuration: SessionConfiguration
    /// Every frame's events (added, updated, removed), for one consumer. Ends when the session is
    /// released or `finish()` is called. A consumer that falls behind loses the oldest events
    /// beyond `configuration.eventBufferLimit`.
    public nonisolated let events: AsyncStream<SessionEvent>
    private let eventSink: AsyncStream<SessionEvent>.Continuation
    private let delegateFeed: AsyncStream<SessionEvent>
    private let delegateSink: AsyncStream<SessionEvent>.Continuation
    private weak var delegate: (any AppClipCodeSessionDelegate)?
    private var deliveryTask: Task<Void, Never>?

    private var reader: AppClipCodeReader
    private var tracks: [TrackedCode] = []
    private var nextIdentifier: UInt64 = 1
    private var frameIndex = 0
    private var lastTimestamp: Double?

    public init(configuration: SessionConfiguration = SessionConfiguration()) throws(AppClipCodeError) {
        self.configuration = configuration
        reader = try AppClipCodeReader(options: configuration.reader)
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self,
                                                     bufferingPolicy: .bufferingNewest(max(1, configuration.eventBufferLimit)))
        (delegateFeed, delegateSink) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .unbounded)
    }

    deinit {
        eventSink.finish()
        delegateSink.finish()
        deliveryTask?.cancel()
    }

    /// Sets (or clears) the delegate, held weakly. Its calls arrive in frame order on its own
    /// isolation; frames are never held up waiting for it.
    public func setDelegate(_ newDelegate: (any AppClipCodeSessionDelegate)?) {
        delegate = newDelegate
        guard deliveryTask == nil, newDelegate != nil else { return }
        let feed = delegateFeed
        deliveryTask = Task.detached { [weak self] in
            for await event in feed {
                guard let session = self else { return }
                guard let target = await session.currentDelegate() else { continue }
                switch event {
                case .added(let anchors): await target.session(session, didAdd: anchors)
                case .updated(let anchors): await target.session(session, didUpdate: anchors)
                case .removed(let anchors): await target.session(session, didRemove: anchors)
                }
            }
        }
    }

    private func currentDelegate() -> (any AppClipCodeSessionDelegate)? { delegate }

    /// Ends `events` (and delegate calls); later frames are still read.
    public func finish() {
        eventSink.finish()
        delegateSink.finish()
    }

    /// The anchors after the latest frame.
    public var anchors: [AppClipCodeAnchor] {
        tracks.filter(\.published).map { snapshot($0, tracked: $0.lastFrame == frameIndex) }
    }

    /// Forgets every code (no events are sent for them).
    public func reset() {
        tracks.removeAll()
        lastTimestamp = nil
    }

    /// Reads one frame and updates the anchors. A frame older than one already read is not read
    /// (`FrameUpdate.stale`).
    public func process(_ frame: Frame) async throws(AppClipCodeError) -> FrameUpdate {
        let start = ContinuousClock.now
        guard frame.timestamp.isFinite else {
            throw AppClipCodeError(kind: .invalidArgument, message: "frame timestamps must be finite")
        }
        if let last = lastTimestamp, frame.timestamp < last {
            // Frames from several threads can reach the session out of order; an older frame would
            // move codes back in time, so it is not read.
            let all = tracks.filter(\.published).map { snapshot($0, tracked: $0.lastFrame == frameIndex) }
            return FrameUpdate(timestamp: frame.timestamp, anchors: all, added: [], updated: [], removed: [],
                               stateChanges: [], reader: FrameStatistics(), sessionMilliseconds: 0, usedHints: 0,
                               stale: true)
        }
        if let k = frame.intrinsics, !k.isValid {
            throw AppClipCodeError(kind: .invalidArgument, message: "camera intrinsics need positive focal lengths")
        }
        lastTimestamp = frame.timestamp
        frameIndex += 1
        let now = frame.timestamp
        let worldFromCamera = frame.cameraTransform.map { RigidTransform(CameraAxes.visionCameraPose(fromARKit: $0)) }

        // 1. Where each live code should be now.
        let live = tracks.indices.filter { now - tracks[$0].lastSeen <= configuration.removeAfter }
        var predicted: [Int: [[Double]]] = [:]
        for i in live { predicted[i] = predictions(for: tracks[i], frame: frame, worldFromCamera: worldFromCamera) }
        let hintOrder = live.sorted { tracks[$0].lastSeen > tracks[$1].lastSeen }.prefix(max(1, configuration.reader.maxCodes))
        let hints = hintOrder.compactMap { predicted[$0]?.first.flatMap { Homography(rowMajor: $0) } }

        // 2. Read.
        let result = try frame.image.withView { view throws(AppClipCodeError) in
            try reader.read(view, hints: hints)
        }

        // 3. Match readings to codes (one reading per code: the reader may report a code twice).
        let codes = AppClipCodeSession.withoutDuplicates(result.codes)
        let matches = associate(codes, candidates: live, predicted: predicted)
        let before = Dictionary(uniqueKeysWithValues: tracks.map { ($0.identifier, ($0.published, $0.state)) })
        var matchedTracks = Set<Int>()
        for (detectionIndex, detection) in codes.enumerated() {
            if let (t, p) = matches[detectionIndex] {
                update(&tracks[t], with: detection, predicted: predicted[t]?[p] ?? tracks[t].homography, frame: frame,
                       worldFromCamera: worldFromCamera)
                matchedTracks.insert(t)
            } else {
                let id = AnchorIdentifier(rawValue: nextIdentifier)
                nextIdentifier += 1
                var track = TrackedCode(identifier: id, detection: detection, timestamp: now, frame: frameIndex,
                                        fusionWindow: configuration.fusionWindow)
                update(&track, with: detection, predicted: detection.homography.m, frame: frame,
                       worldFromCamera: worldFromCamera)
                tracks.append(track)
                matchedTracks.insert(tracks.count - 1)
            }
        }

        // 4. Publish, fail, forget.
        var removed: [AppClipCodeAnchor] = []
        var keep: [TrackedCode] = []
        for (i, var track) in tracks.enumerated() {
            let seen = matchedTracks.contains(i)
            if !track.published {
                // A candidate is kept (gathering evidence) as long as an anchor would be.
                if !seen {
                    if now - track.lastSeen <= configuration.removeAfter { keep.append(track) }
                    continue
                }
                if track.state == .decoded || track.framesSeen >= configuration.sightingsBeforeUndecodedAnchor {
                    track.published = true
                }
            }
            if track.published && !seen && now - track.lastSeen > configuration.removeAfter {
                removed.append(snapshot(track, tracked: false))
                continue
            }
            if track.published && track.state == .decoding && now - track.firstSeen >= configuration.failAfter {
                track.state = .failed
            }
            keep.append(track)
        }
        tracks = keep

        // 5. Snapshots and events.
        var added: [AppClipCodeAnchor] = []
        var updated: [AppClipCodeAnchor] = []
        var changes: [DecodingStateChange] = []
        var all: [AppClipCodeAnchor] = []
        for track in tracks where track.published {
            let seen = track.lastFrame == frameIndex
            let anchor = snapshot(track, tracked: seen)
            all.append(anchor)
            guard let (wasPublished, oldState) = before[track.identifier], wasPublished else {
                added.append(anchor)
                changes.append(DecodingStateChange(identifier: track.identifier, from: nil, to: track.state))
                continue
            }
            let lostNow = !seen && track.lastFrame == frameIndex - 1
            if seen || lostNow || oldState != track.state { updated.append(anchor) }
            if oldState != track.state {
                changes.append(DecodingStateChange(identifier: track.identifier, from: oldState, to: track.state))
            }
        }
        let update = FrameUpdate(timestamp: now, anchors: all, added: added, updated: updated, removed: removed,
                                 stateChanges: changes, reader: result.statistics,
                                 sessionMilliseconds: AppClipCodeSession.milliseconds(since: start),
                                 usedHints: hints.count, stale: false)
        for event in update.events {
            eventSink.yield(event)
            if deliveryTask != nil { delegateSink.yield(event) }
        }
        return update
    }

    // MARK: - Prediction and association

    /// Where a code may appear in this frame (SVG → pixels, anchor orientation), best guess first:
    /// from its place in the world and the camera pose (when both are known), from its image
    /// motion over the last frame interval, and where it was last seen.
    private func predictions(for track: TrackedCode, frame: Frame, worldFromCamera: RigidTransform?) -> [[Double]] {
        var out: [[Double]] = []
        if let worldCode = track.worldFromCodePlane, let worldCamera = worldFromCamera, let k = frame.intrinsics,
           let diameter = measuredDiameter(track) {
            let cameraCode = worldCamera.inverse * worldCode
            if let h = AppClipCodeSession.projectHomography(cameraFromCodePlane: cameraCode, intrinsics: k,
                                                            diameter: diameter) {
                out.append(h)
            }
        }
        // The code's image motion over the last interval is carried forward as a similarity (shift,
        // turn and scale about its center); the plane's perspective stays the last one.
        // Extrapolating the whole homography doubles every error in its perspective terms, which a
        // small code hardly constrains, and a plane the reader could only align (not fit) keeps its
        // hint's perspective: the error grew frame after frame (tri `approach_001` in NV12).
        if let previous = track.previousHomography, let tPrevious = track.previousSeen,
           let motion = AppClipCodeSession.similarityMotion(from: previous, to: track.homography) {
            let interval = track.lastSeen - tPrevious
            let ahead = frame.timestamp - track.lastSeen
            if interval > 0, ahead > 0, ahead / interval > 0.5, ahead / interval < 1.5 {
                let h = HomographyMath.normalized(HomographyMath.multiply(motion, track.homography))
                if let s0 = HomographyMath.scaleAtCenter(track.homography), let s1 = HomographyMath.scaleAtCenter(h),
                   s1 > 0.5 * s0, s1 < 2 * s0, h.allSatisfy(\.isFinite) {
                    out.append(h)
                }
            }
        }
        out.append(track.homography)
        return out
    }

    /// The rim's top, right, bottom and left points in SVG units (the anchor's corners).
    static let rimPoints: [(x: Double, y: Double)] = [(400, 0), (800, 400), (400, 800), (0, 400)]

    /// The image similarity (row-major 3×3) that best takes the code's center and rim points on
    /// plane `a` to those on plane `b` (least squares, in complex numbers: z ↦ m·z + t).
    static func similarityMotion(from a: [Double], to b: [Double]) -> [Double]? {
        // The five points in SIMD lanes (this runs per code and frame: nothing allocated).
        var fromX = SIMD8<Double>(), fromY = SIMD8<Double>(), toX = SIMD8<Double>(), toY = SIMD8<Double>()
        for k in 0..<5 {
            let (x, y) = k == 0 ? (400.0, 400.0) : rimPoints[k - 1]
            guard let p = HomographyMath.apply(a, x, y), let q = HomographyMath.apply(b, x, y) else { return nil }
            (fromX[k], fromY[k], toX[k], toY[k]) = (p.x, p.y, q.x, q.y)
        }
        var fx = 0.0, fy = 0.0, tx = 0.0, ty = 0.0
        for k in 0..<5 {
            fx += fromX[k]
            fy += fromY[k]
            tx += toX[k]
            ty += toY[k]
        }
        (fx, fy, tx, ty) = (fx / 5, fy / 5, tx / 5, ty / 5)
        var re = 0.0, im = 0.0, norm = 0.0
        for k in 0..<5 {
            let px = fromX[k] - fx, py = fromY[k] - fy, qx = toX[k] - tx, qy = toY[k] - ty
            re += px * qx + py * qy
            im += px * qy - py * qx
            norm += px * px + py * py
        }
        guard norm > 1e-9 else { return nil }
        let mr = re / norm, mi = im / norm
        return [mr, -mi, tx - (mr * fx - mi * fy), mi, mr, ty - (mi * fx + mr * fy), 0, 0, 1]
    }

    static func projectHomography(cameraFromCodePlane t: RigidTransform, intrinsics k: CameraIntrinsics,
                                  diameter: Double) -> [Double]? {
        let s = diameter / 800
        let r1 = t.rotation.column(0) * s, r2 = t.rotation.column(1) * s
        let origin = t.translation - (r1 + r2) * 400
        guard t.translation.z > 0 else { return nil }
        let cols = [r1, r2, origin]
        var h = [Double](repeating: 0, count: 9)
        for c in 0..<3 {
            h[c] = k.fx * cols[c].x + k.cx * cols[c].z
            h[3 + c] = k.fy * cols[c].y + k.cy * cols[c].z
            h[6 + c] = cols[c].z
        }
        let n = HomographyMath.normalized(h)
        return n.allSatisfy(\.isFinite) ? n : nil
    }

    /// Detection index → (track index, index of the prediction it matched). Greedy on the distance
    /// of centers (in predicted radii) and the ratio of sizes, over every prediction of a track;
    /// decoded codes only match codes holding the same payload.
    private func associate(_ detections: [CodeDetection], candidates: [Int],
                           predicted: [Int: [[Double]]]) -> [Int: (Int, Int)] {
        var pairs: [(cost: Double, detection: Int, track: Int, prediction: Int)] = []
        for (d, detection) in detections.enumerated() {
            guard let dScale = HomographyMath.scaleAtCenter(detection.homography.m) else { continue }
            for t in candidates {
                let track = tracks[t]
                if detection.state == .decoded, track.state == .decoded, detection.payload != track.payload { continue }
                var best: (cost: Double, index: Int)?
                for (p, h) in (predicted[t] ?? []).enumerated() {
                    guard let c = HomographyMath.apply(h, 400, 400), let scale = HomographyMath.scaleAtCenter(h),
                          scale > 0 else { continue }
                    // The larger of the two radii: a track's last plane can be off in scale (an
                    // alignment half a ring off), this frame's is measured. Two codes' discs cannot
                    // overlap, so separate codes lie two radii apart or more: within one radius a
                    // reading can only be this code (a shaky camera moves a small code that far while
                    // its track is lost for a few frames; weak16 `tiny_003` split into two anchors at
                    // 0.6 radii).
                    let radius = 400 * max(scale, dScale)
                    let dx = detection.center.x - c.x, dy = detection.center.y - c.y
                    let distance = (dx * dx + dy * dy).squareRoot() / radius
                    let ratio = dScale / scale
                    guard distance < 1.0, ratio > 0.6, ratio < 1.6 else { continue }
                    let cost = distance + abs(ratio - 1)
                    if best == nil || cost < best?.cost ?? .infinity { best = (cost, p) }
                }
                if let best { pairs.append((best.cost, d, t, best.index)) }
            }
        }
        pairs.sort { $0.cost < $1.cost }
        var out: [Int: (Int, Int)] = [:]
        var usedTracks = Set<Int>()
        for p in pairs where out[p.detection] == nil && !usedTracks.contains(p.track) {
            out[p.detection] = (p.track, p.prediction)
            usedTracks.insert(p.track)
        }
        return out
    }

    /// Readings that overlap (centers within half a radius, sizes within 30 %) are one code: the
    /// decoded one, else the most confident, is kept.
    static func withoutDuplicates(_ detections: [CodeDetection]) -> [CodeDetection] {
        guard detections.count > 1 else { return detections }
        func rank(_ d: CodeDetection) -> (Int, Float) { (d.state == .decoded ? 1 : 0, d.confidence) }
        let order = detections.indices.sorted { rank(detections[$0]) > rank(detections[$1]) }
        var kept: [Int] = []
        for i in order {
            let d = detections[i]
            guard let si = HomographyMath.scaleAtCenter(d.homography.m) else { continue }
            let duplicate = kept.contains { k in
                let e = detections[k]
                guard let sk = HomographyMath.scaleAtCenter(e.homography.m) else { return false }
                let dx = d.center.x - e.center.x, dy = d.center.y - e.center.y
                let distance = (dx * dx + dy * dy).squareRoot()
                return distance < 0.5 * 400 * min(si, sk) && si / sk > 0.7 && si / sk < 1 / 0.7
            }
            if !duplicate { kept.append(i) }
        }
        return kept.sorted().map { detections[$0] }
    }

    // MARK: - Updating a code

    private func update(_ track: inout TrackedCode, with detection: CodeDetection, predicted: [Double], frame: Frame,
                        worldFromCamera: RigidTransform?) {
        let now = frame.timestamp
        let turn = Homography(rowMajor: predicted).flatMap {
            CodeOrientation.measure(reference: $0, detection: detection.homography)
        } ?? .identity
        var homography = detection.homography.m
        // Set when the anchor's orientation turns out to be another one: reference ∘ reorientation.
        var reorientation: CodeOrientation?

        switch (detection.state, track.state) {
        case (.decoded, .decoded):
            break   // same payload (association checked); the reading's orientation is the code's own
        case (.decoded, _):
            if !AppClipCodeSession.isSmall(turn) { reorientation = turn }
            track.markDecoded(payload: detection.payload, url: detection.url, version: detection.version, inSingleFrame: true)
        case (.failed, .decoded):
            if !AppClipCodeSession.isSmall(turn) { homography = HomographyMath.turned(homography, by: turn.inverse) }
        case (.failed, _):
            let bin = track.evidence.add(detection.observation, orientation: turn, frameIndex: frameIndex)
            track.framesFused += 1
            let binTurn = track.evidence.bins[bin].orientation
            if track.evidence.bins[bin].frames.count >= configuration.minimumFusedFrames,
               let decoded = track.evidence.decode(bin, extraCheckBits: configuration.fusedDecodeExtraCheckBits) {
                // This bin's orientation is the code's, and this reading was taken in it.
                if !AppClipCodeSession.isSmall(binTurn) { reorientation = binTurn }
                track.markDecoded(payload: decoded.payload, url: decoded.url, version: decoded.version, inSingleFrame: false)
            } else if !AppClipCodeSession.isSmall(binTurn) {
                homography = HomographyMath.turned(homography, by: binTurn.inverse)
            }
        }

        if track.framesSeen > 0 {
            track.previousHomography = track.homography
            track.previousSeen = track.lastSeen
        }
        if let r = reorientation {
            track.previousHomography = track.previousHomography.map { HomographyMath.turned($0, by: r) }
            track.evidence.rebase(by: r)
            if r.mirrored {
                track.worldFromCodePlane = nil
            } else if let w = track.worldFromCodePlane {
                let spin = Matrix3.rotation(axis: SIMD3(0, 0, 1), angle: r.angle)
                track.worldFromCodePlane = w * RigidTransform(rotation: spin, translation: .zero)
            }
        }
        track.homography = homography
        track.lastSeen = now
        track.lastFrame = frameIndex
        track.framesSeen += 1
        if detection.state == .decoded || track.state != .decoded {
            track.palette = detection.palette
            track.logo = detection.logo
        }
        track.mirrored = AppClipCodeSession.isMirrored(homography)
        if let c = HomographyMath.apply(homography, 400, 400) { track.center = c }
        track.corners = AppClipCodeSession.rimPoints.compactMap { HomographyMath.apply(homography, $0.x, $0.y) }

        // A plane from ring alignment alone can settle one ring spacing off (4 of the 5 rings
        // still match) and would bias the size.
        measure(&track, frame: frame, worldFromCamera: worldFromCamera, sizesFrom: !detection.alignedOnly)
    }

    static func isSmall(_ turn: CodeOrientation) -> Bool {
        !turn.mirrored && abs(turn.angle) < RingEvidence.tolerance
    }

    static func isMirrored(_ h: [Double]) -> Bool {
        guard let c = HomographyMath.apply(h, 400, 400), let px = HomographyMath.apply(h, 401, 400),
              let py = HomographyMath.apply(h, 400, 401) else { return false }
        return (px.x - c.x) * (py.y - c.y) - (px.y - c.y) * (py.x - c.x) < 0
    }

    /// Pose, size and transform from this sighting; `sizesFrom`: it also feeds the size estimates.
    private func measure(_ track: inout TrackedCode, frame: Frame, worldFromCamera: RigidTransform?, sizesFrom: Bool) {
        track.worldFromCamera = worldFromCamera
        guard let k = frame.intrinsics, !track.mirrored, let h = Homography(rowMajor: track.homography),
              let unit = try? CodePose.estimate(homography: h, intrinsics: k, diameter: 1,
                                                pixelNoise: configuration.pixelNoise) else {
            track.unitPose = nil
            return
        }
        track.unitPose = unit
        let distance = length3(unit.centerCamera)
        if sizesFrom, let camera = worldFromCamera {
            let scale = HomographyMath.scaleAtCenter(track.homography) ?? 1
            let focal = (k.fx + k.fy) / 2
            track.triangulation.add(cameraCenter: camera.translation, unitRay: camera.rotation * unit.centerCamera,
                                    acrossSigma: distance * configuration.pixelNoise / focal,
                                    alongSigma: distance * configuration.pixelNoise / max(1, 400 * scale))
        }
        if sizesFrom, let depth = frame.depth {
            track.depthSizing.add(depth: depth, imageWidth: frame.image.width, imageHeight: frame.image.height,
                                  homography: h, unitPose: unit)
        }
        if configuration.codeDiameter == nil {
            if worldFromCamera != nil, let s = track.triangulation.solve() {
                track.triangulatedRadius = RadiusEstimate(radius: s.diameter / 2, uncertainty: s.sigma / 2,
                                                          source: .triangulation, frames: track.triangulation.frames)
            }
            if frame.depth != nil, let s = track.depthSizing.solve() {
                track.depthRadius = RadiusEstimate(radius: s.diameter / 2, uncertainty: s.sigma / 2, source: .depth,
                                                   frames: track.depthSizing.frames)
            }
        }
        let diameter = 2 * radiusEstimate(track).radius
        let cameraFromCode = RigidTransform(rotation: unit.rotationMatrix, translation: unit.centerCamera * diameter)
        if let camera = worldFromCamera, measuredDiameter(track) != nil {
            track.worldFromCodePlane = camera * cameraFromCode
        }
        let cameraFromAnchor = RigidTransform(rotation: unit.rotationMatrix * CameraAxes.codePlaneFromAnchor,
                                              translation: unit.centerCamera * diameter)
        let worldFromVision = worldFromCamera ?? RigidTransform(rotation: CameraAxes.flipYZ3, translation: .zero)
        track.transform = (worldFromVision * cameraFromAnchor).matrix4x4
        track.hasPose = true
    }

    // MARK: - Size

    /// Measured estimates good enough to place the code: depth with 1σ under a quarter of the size;
    /// triangulation over 5 frames or more, lines of sight at least 1° apart and 1σ under 10 %.
    private func measuredRadius(_ track: TrackedCode) -> RadiusEstimate? {
        // Triangulation needs lines of sight a few degrees apart before its noise model can be trusted.
        let triangulated = track.triangulatedRadius.flatMap { e in
            e.frames >= 5 && track.triangulation.parallax >= AppClipCodeSession.minimumParallax
                && e.uncertainty < 0.1 * e.radius ? e : nil
        }
        // Called several times per code and frame: no arrays.
        func usable(_ e: RadiusEstimate?) -> RadiusEstimate? {
            e.flatMap { $0.radius > 0 && $0.uncertainty < 0.25 * $0.radius ? $0 : nil }
        }
        switch (usable(triangulated), usable(track.depthRadius)) {
        case (nil, nil):
            return nil
        case (let e?, nil), (nil, let e?):
            return e
        case (let a?, let b?):
            let wa = 1 / max(1e-12, a.uncertainty * a.uncertainty), wb = 1 / max(1e-12, b.uncertainty * b.uncertainty)
            let weight = wa + wb, total = wa * a.radius + wb * b.radius
            return RadiusEstimate(radius: total / weight, uncertainty: (1 / weight).squareRoot(), source: .combined,
                                  frames: max(a.frames, b.frames))
        }
    }

    static let minimumParallax = 1.0 * Double.pi / 180

    private func measuredDiameter(_ track: TrackedCode) -> Double? {
        if let known = configuration.codeDiameter { return known }
        return measuredRadius(track).map { 2 * $0.radius }
    }

    private func radiusEstimate(_ track: TrackedCode) -> RadiusEstimate {
        if let known = configuration.codeDiameter, known > 0 {
            return RadiusEstimate(radius: known / 2, uncertainty: 0, source: .configured, frames: 0)
        }
        if let measured = measuredRadius(track) { return measured }
        return RadiusEstimate(radius: configuration.assumedDiameter / 2, uncertainty: configuration.assumedDiameter / 4,
                              source: .assumed, frames: 0)
    }

    // MARK: - Snapshots

    private func snapshot(_ track: TrackedCode, tracked: Bool) -> AppClipCodeAnchor {
        let radius = radiusEstimate(track)
        let geometry = CodeImageGeometry(timestamp: track.lastSeen, center: track.center, corners: track.corners,
                                         homography: Homography(rowMajor: track.homography) ?? .identity,
                                         mirrored: track.mirrored)
        return AppClipCodeAnchor(
            identifier: track.identifier, transform: track.transform, hasPose: track.hasPose,
            radius: Float(radius.radius), radiusEstimate: radius, triangulatedRadius: track.triangulatedRadius,
            depthRadius: track.depthRadius, url: track.state == .decoded ? track.url : nil,
            urlDecodingState: track.state, isTracked: tracked, payload: track.state == .decoded ? track.payload : [],
            version: track.state == .decoded ? track.version : nil, decodedInSingleFrame: track.decodedInSingleFrame,
            image: geometry, pose: track.unitPose?.scaled(toDiameter: 2 * radius.radius), palette: track.palette,
            logo: track.logo, firstSeen: track.firstSeen, lastSeen: track.lastSeen, framesSeen: track.framesSeen,
            framesFused: track.framesFused)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
