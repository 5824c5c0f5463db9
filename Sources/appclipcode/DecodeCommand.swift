import AppClipCodeKit
import ArgumentParser
import Foundation

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Read App Clip Codes from photos, camera frames (JPEG, PNG) and SVG files.",
        discussion: """
            With --json, prints one JSON line per file: {"file", "width", "height", "elapsed_ms", \
            "codes": [{"state", "url", "payload_hex", "version", "center", "corners", "homography", \
            "palette", "logo", "confidence", "reason"}], "error"}. Exits 1 if any file could not be read.
            """)

    @Flag(name: .long, help: "One JSON line per file.")
    var json = false

    @Option(name: .long, help: "Draw outlines, sample points and URLs onto a copy of the (single) image, as PNG.")
    var overlay: String?

    @Option(name: .long, help: "Read more file names from this file, one per line (- for standard input).")
    var filesFrom: String?

    @Option(name: .long, help: "Camera intrinsics fx,fy,cx,cy (pixels); with --code-diameter adds each code's \"pose\".")
    var intrinsics: String?

    @Option(name: .long, help: "Printed code diameter in meters (for --intrinsics).")
    var codeDiameter: Double?

    @Argument(help: "Images (.jpg, .jpeg, .png) or SVG files.")
    var files: [String] = []

    func validate() throws {
        if files.isEmpty && filesFrom == nil { throw ValidationError("Give at least one file (or --files-from).") }
        if overlay != nil && (files.count != 1 || filesFrom != nil) { throw ValidationError("--overlay takes exactly one input file.") }
        if (intrinsics == nil) != (codeDiameter == nil) { throw ValidationError("--intrinsics and --code-diameter go together.") }
        if let d = codeDiameter, !(d > 0) { throw ValidationError("--code-diameter must be positive.") }
        if let k = intrinsics { _ = try parseIntrinsics(k) }
    }

    func run() throws {
        var reader = try AppClipCodeReader()
        var anyError = false
        for file in try collectInputs(files, filesFrom: filesFrom) {
            var report = FileDecoding.decode(file: file, reader: &reader, overlay: overlay)
            if let k = try intrinsics.map(parseIntrinsics), let d = codeDiameter, !file.lowercased().hasSuffix(".svg") {
                for i in report.codes.indices {
                    let pose = Homography(rowMajor: report.codes[i].homography).flatMap {
                        try? CodePose.estimate(homography: $0, intrinsics: k, diameter: d)
                    }
                    report.codes[i].pose = .some(pose.map(poseJSON) ?? .null)
                }
            }
            if report.error != nil { anyError = true }
            emitLine(json ? report.json : report.humanText)
        }
        if anyError { throw ExitCode(1) }
    }
}

/// The outcome of reading one file, in both output forms.
struct FileDecoding {
    var file: String
    var width = 0
    var height = 0
    var elapsedMilliseconds = 0.0
    var codes: [CodeReport] = []
    var error: String?

    struct CodeReport {
        var decoded: Bool
        var url: String?
        var payload: [UInt8]
        var version: Int?
        var center: Point2
        var corners: [Point2]
        var homography: [Double]
        var palette: Palette
        var logo: Logo
        var confidence: Float
        var reason: String?
        var pose: JSONValue?
    }

    static func decode(file: String, reader: inout AppClipCodeReader, overlay: String?) -> FileDecoding {
        var result = FileDecoding(file: file)
        if file.lowercased().hasSuffix(".svg") {
            result.decodeSVG()
        } else {
            result.decodeImage(reader: &reader, overlay: overlay)
        }
        return result
    }

    private mutating func decodeSVG() {
        width = 800
        height = 800
        let text: String
        do {
            text = try readText(file)
        } catch {
            self.error = "\(error)"
            return
        }
        let start = ContinuousClock.now
        do {
            let reading = try SVGCodeReading(svg: text)
            let corners = [Point2(x: 400, y: 0), Point2(x: 800, y: 400), Point2(x: 400, y: 800), Point2(x: 0, y: 400)]
            var report = CodeReport(
                decoded: false, url: nil, payload: [], version: nil, center: Point2(x: 400, y: 400), corners: corners,
                homography: Homography.identity.m, palette: reading.palette, logo: reading.logo, confidence: 0, reason: nil)
            do {
                let decoded = try reading.decode()
                report.decoded = true
                report.payload = decoded.payload
                report.version = decoded.version
                report.url = decoded.url
                report.confidence = 0.5 + 0.5 * decoded.margin
            } catch {
                report.reason = error.kind.rawValue + ": " + error.message
            }
            codes = [report]
        } catch {
            self.error = error.kind.rawValue + ": " + error.message
        }
        elapsedMilliseconds = milliseconds(since: start)
    }

    private mutating func decodeImage(reader: inout AppClipCodeReader, overlay: String?) {
        let image: DecodedImage
        do {
            image = try DecodedImage(contentsOfFile: file)
        } catch {
            self.error = error.kind.rawValue + ": " + error.message
            return
        }
        width = image.width
        height = image.height
        let start = ContinuousClock.now
        do {
            let read = try reader.read(image)
            elapsedMilliseconds = milliseconds(since: start)
            codes = read.codes.map { d in
                var reason: String?
                if case .failed(let kind) = d.state { reason = kind.rawValue }
                return CodeReport(
                    decoded: d.state == .decoded, url: d.url, payload: d.payload, version: d.version, center: d.center,
                    corners: d.corners, homography: d.homography.m, palette: d.palette, logo: d.logo,
                    confidence: d.confidence, reason: reason)
            }
            if let overlay {
                do {
                    try Overlay.write(image: image, detections: read.codes, to: overlay)
                } catch {
                    emitError("warning: overlay not written: \(error)")
                }
            }
        } catch {
            self.error = error.kind.rawValue + ": " + error.message
        }
    }

    var json: String {
        func point(_ p: Point2) -> JSONValue { .array([.number(round2(p.x)), .number(round2(p.y))]) }
        let codeValues: [JSONValue] = codes.map { c in
            .object([
                ("state", .string(c.decoded ? "decoded" : "failed")),
                ("url", .optional(c.url)),
                ("payload_hex", c.payload.isEmpty ? .null : .string(c.payload.map { String(format: "%02x", $0) }.joined())),
                ("version", c.version.map { .integer($0) } ?? .null),
                ("center", point(c.center)),
                ("corners", .array(c.corners.map(point))),
                ("homography", .array(c.homography.map { .number($0) })),
                ("palette", .object([
                    ("foreground", .string(c.palette.foreground.description)),
                    ("background", .string(c.palette.background.description)),
                    ("third", .string(c.palette.third.description)),
                ])),
                ("logo", .string(c.logo.rawValue)),
                ("confidence", .number(Double((c.confidence * 1000).rounded() / 1000))),
                ("reason", .optional(c.reason)),
            ] + (c.pose.map { [("pose", $0)] } ?? []))
        }
        return JSONValue.object([
            ("file", .string(file)),
            ("width", .integer(width)),
            ("height", .integer(height)),
            ("elapsed_ms", .number((elapsedMilliseconds * 1000).rounded() / 1000)),
            ("codes", .array(codeValues)),
            ("error", .optional(error)),
        ]).text
    }

    var humanText: String {
        if let error { return "\(file): error: \(error)" }
        if codes.isEmpty { return "\(file): no App Clip Code found" }
        return codes.map { c in
            if c.decoded {
                return "\(file): \(c.url ?? "token " + c.payload.map { String(format: "%02x", $0) }.joined())"
            }
            return "\(file): code at (\(Int(c.center.x)), \(Int(c.center.y))) not read: \(c.reason ?? "unknown")"
        }.joined(separator: "\n")
    }
}

func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }

func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}
