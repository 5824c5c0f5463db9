import AppClipCodeKit
import ArgumentParser
import Foundation

struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Track App Clip Codes through a sequence of frames, like ARKit's App Clip Code anchors.",
        discussion: """
            Frames are read in the order given. Timestamps come from --poses (t_s) or from --fps. \
            --poses takes a tools/synth sequence.json, or a JSON array of {"file", "t_s", \
            "camera_to_world"} (row-major 4x4, camera x right, y down, z forward) or {"file", "t_s", \
            "arkit_transform"} (16 numbers column-major, ARKit camera axes); entries are matched to \
            frames by file name, else by order. With --json, prints one line per frame: {"file", \
            "timestamp", "elapsed_ms", "reader_ms", "events": [{"type", "id", ...}], "anchors": [{"id", \
            "state", "url", "tracked", "center", "radius_m", "radius_sigma_m", "radius_source", \
            "transform", "pose", ...}]}.
            """)

    @Option(name: .long, help: "Camera intrinsics fx,fy,cx,cy (pixels). Default: the --poses file's intrinsics.")
    var intrinsics: String?

    @Option(name: .long, help: "Camera poses and timestamps (see below).")
    var poses: String?

    @Option(name: .long, help: "Printed code diameter in meters, when known.")
    var codeDiameter: Double?

    @Option(name: .long, help: "Frames per second when timestamps are not given (default 30).")
    var fps: Double = 30

    @Option(name: .long, help: "Seconds without a valid codeword before a code's state becomes failed.")
    var failAfter: Double?

    @Option(name: .long, help: "Seconds without a sighting before a code is removed.")
    var removeAfter: Double?

    @OptionGroup var cameraFormat: CameraFormatOptions

    @Flag(name: .long, help: "One JSON line per frame.")
    var json = false

    @Argument(help: "Frames (.jpg, .png), in order.")
    var frames: [String] = []

    func validate() throws {
        if frames.isEmpty { throw ValidationError("Give at least one frame.") }
        if let k = intrinsics { _ = try parseIntrinsics(k) }
        if let d = codeDiameter, !(d > 0) { throw ValidationError("--code-diameter must be positive.") }
        if !(fps > 0) { throw ValidationError("--fps must be positive.") }
    }

    func run() async throws {
        var config = SessionConfiguration()
        config.codeDiameter = codeDiameter
        if let f = failAfter { config.failAfter = f }
        if let r = removeAfter { config.removeAfter = r }
        let session = try AppClipCodeSession(configuration: config)
        let poseFile = try poses.map(PoseFile.load)
        let k = try intrinsics.map(parseIntrinsics) ?? poseFile?.intrinsics
        var anyError = false
        for (index, file) in frames.enumerated() {
            let entry = poseFile?.entry(for: file, index: index)
            let timestamp = entry?.timestamp ?? Double(index) / fps
            let image: DecodedImage
            do {
                image = try DecodedImage(contentsOfFile: file)
            } catch {
                anyError = true
                emitLine(json ? JSONValue.object([("file", .string(file)), ("error", .string("\(error)"))]).text
                              : "\(file): error: \(error)")
                continue
            }
            let buffer = try cameraFormat.frame(from: image)
            let frame = Frame(image: buffer, timestamp: timestamp, intrinsics: k, cameraTransform: entry?.arkitTransform)
            let start = ContinuousClock.now
            let update = try await session.process(frame)
            let elapsed = milliseconds(since: start)
            emitLine(json ? frameJSON(file: file, update: update, elapsed: elapsed) : frameText(file: file, update: update))
        }
        if anyError { throw ExitCode(1) }
    }

    private func anchorJSON(_ a: AppClipCodeAnchor) -> JSONValue {
        func point(_ p: Point2) -> JSONValue { .array([.number(round2(p.x)), .number(round2(p.y))]) }
        func radius(_ r: RadiusEstimate?) -> JSONValue {
            guard let r else { return .null }
            return .object([("radius_m", .number((r.radius * 1e6).rounded() / 1e6)),
                            ("sigma_m", .number((r.uncertainty * 1e6).rounded() / 1e6)), ("frames", .integer(r.frames))])
        }
        return .object([
            ("id", .integer(Int(a.identifier.rawValue))),
            ("state", .string(a.urlDecodingState.rawValue)),
            ("url", .optional(a.url)),
            ("payload_hex", a.payload.isEmpty ? .null : .string(a.payload.map { String(format: "%02x", $0) }.joined())),
            ("tracked", .bool(a.isTracked)),
            ("single_frame", .bool(a.decodedInSingleFrame)),
            ("center", point(a.image.center)),
            ("corners", .array(a.image.corners.map(point))),
            ("homography", .array(a.image.homography.m.map { .number($0) })),
            ("radius_m", .number((Double(a.radius) * 1e6).rounded() / 1e6)),
            ("radius_sigma_m", .number((a.radiusEstimate.uncertainty * 1e6).rounded() / 1e6)),
            ("radius_source", .string(a.radiusEstimate.source.rawValue)),
            ("radius_triangulated", radius(a.triangulatedRadius)),
            ("radius_depth", radius(a.depthRadius)),
            ("transform", a.hasPose ? .array(a.transform.columnMajor.map { .number(Double($0)) }) : .null),
            ("pose", a.pose.map(poseJSON) ?? .null),
            ("first_seen", .number(a.firstSeen)),
            ("last_seen", .number(a.lastSeen)),
            ("frames_seen", .integer(a.framesSeen)),
            ("frames_fused", .integer(a.framesFused)),
        ])
    }

    private func frameJSON(file: String, update: FrameUpdate, elapsed: Double) -> String {
        var events: [JSONValue] = []
        for a in update.added { events.append(.object([("type", .string("added")), ("id", .integer(Int(a.identifier.rawValue)))])) }
        for c in update.stateChanges where c.from != nil {
            events.append(.object([("type", .string("state")), ("id", .integer(Int(c.identifier.rawValue))),
                                   ("from", .optional(c.from?.rawValue)), ("to", .string(c.to.rawValue))]))
        }
        for a in update.removed { events.append(.object([("type", .string("removed")), ("id", .integer(Int(a.identifier.rawValue)))])) }
        return JSONValue.object([
            ("file", .string(file)),
            ("timestamp", .number(update.timestamp)),
            ("elapsed_ms", .number((elapsed * 1000).rounded() / 1000)),
            ("reader_ms", .number((update.reader.totalMilliseconds * 1000).rounded() / 1000)),
            ("session_ms", .number((update.sessionMilliseconds * 1000).rounded() / 1000)),
            ("hints", .integer(update.usedHints)),
            ("events", .array(events)),
            ("anchors", .array(update.anchors.map(anchorJSON))),
        ]).text
    }

    private func frameText(file: String, update: FrameUpdate) -> String {
        var lines: [String] = []
        for a in update.added { lines.append("  + \(a.identifier) added (\(a.urlDecodingState.rawValue))") }
        for c in update.stateChanges where c.from != nil {
            lines.append("  ~ \(c.identifier) \(c.from?.rawValue ?? "") -> \(c.to.rawValue)")
        }
        for a in update.removed { lines.append("  - \(a.identifier) removed") }
        for a in update.anchors {
            var text = "  \(a.identifier) \(a.urlDecodingState.rawValue)\(a.isTracked ? "" : " (not tracked)")"
            text += " at (\(Int(a.image.center.x.rounded())), \(Int(a.image.center.y.rounded())))"
            if let url = a.url { text += " \(url)" }
            if let pose = a.pose {
                let c = pose.centerCamera
                text += String(format: " center %.3f,%.3f,%.3f m", c.x, c.y, c.z)
            }
            text += String(format: " radius %.4f m (%@)", Double(a.radius), a.radiusEstimate.source.rawValue)
            lines.append(text)
        }
        return "\(file) t=\(String(format: "%.3f", update.timestamp))" + (lines.isEmpty ? ": no codes" : "\n" + lines.joined(separator: "\n"))
    }
}

/// Camera poses and timestamps for `track`.
struct PoseFile {
    struct Entry {
        var file: String?
        var timestamp: Double?
        /// World ← camera, ARKit camera axes.
        var arkitTransform: Matrix4x4?
    }

    var entries: [Entry]
    var intrinsics: CameraIntrinsics?

    static func load(_ path: String) throws -> PoseFile {
        guard let data = FileManager.default.contents(atPath: path) else { throw FileError(description: "cannot read \(path)") }
        let root = try JSONSerialization.jsonObject(with: data)
        var list: [[String: Any]] = []
        var intrinsics: CameraIntrinsics?
        if let object = root as? [String: Any] {
            list = object["frames"] as? [[String: Any]] ?? []
            if let k = object["intrinsics"] as? [String: Any], let fx = k["fx"] as? Double, let fy = k["fy"] as? Double,
               let cx = k["cx"] as? Double, let cy = k["cy"] as? Double {
                intrinsics = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
            }
        } else if let array = root as? [[String: Any]] {
            list = array
        } else {
            throw FileError(description: "\(path): expected a JSON object with \"frames\" or an array")
        }
        let entries = try list.enumerated().map { (i, item) -> Entry in
            var entry = Entry(file: item["file"] as? String, timestamp: item["t_s"] as? Double, arkitTransform: nil)
            if let m = item["camera_to_world"] as? [Double] {
                guard let vision = Matrix4x4(rowMajor: m.map(Float.init)) else {
                    throw FileError(description: "\(path): frame \(i): camera_to_world needs 16 numbers")
                }
                entry.arkitTransform = CameraAxes.arkitCameraPose(fromVision: vision)
            } else if let m = item["arkit_transform"] as? [Double] {
                guard let t = Matrix4x4(columnMajor: m.map(Float.init)) else {
                    throw FileError(description: "\(path): frame \(i): arkit_transform needs 16 numbers")
                }
                entry.arkitTransform = t
            }
            return entry
        }
        return PoseFile(entries: entries, intrinsics: intrinsics)
    }

    func entry(for file: String, index: Int) -> Entry? {
        let name = (file as NSString).lastPathComponent
        if let e = entries.first(where: { $0.file.map { ($0 as NSString).lastPathComponent } == name }) { return e }
        return index < entries.count && entries[index].file == nil ? entries[index] : nil
    }
}
