import AppClipCodeKit
import ArgumentParser
import Foundation

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Decode frame sets and report latency, throughput, time per stage and decode rate.",
        discussion: """
            Latency is the reader's time per frame once the image is in memory (file decoding, and \
            the conversion asked for by --gray or --nv12, are not counted).
            """)

    @Argument(help: "Folders of images (searched recursively) or image files.")
    var paths: [String]

    @Option(name: .long, help: "Worker threads, each with its own reader.")
    var threads: Int = 1

    @Option(name: .long, help: "Read each frame this many times (the first read warms the reader).")
    var repeats: Int = 1

    @OptionGroup var cameraFormat: CameraFormatOptions

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        if threads < 1 || threads > 256 { throw ValidationError("--threads must be 1…256.") }
        if repeats < 1 { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() async throws {
        let files = paths.flatMap(imageFiles(under:)).sorted()
        guard !files.isEmpty else { throw ValidationError("No .jpg, .jpeg or .png files under \(paths.joined(separator: ", ")).") }
        let progress = Progress(total: files.count, enabled: !json && isatty(2) != 0)
        let wallStart = ContinuousClock.now
        let (results, busiestWorker) = try await withThrowingTaskGroup(of: [FrameTiming].self) { group in
            for worker in 0..<threads {
                let mine = stride(from: worker, to: files.count, by: threads).map { files[$0] }
                let repeats = self.repeats
                let cameraFormat = self.cameraFormat
                group.addTask {
                    var reader = try AppClipCodeReader()
                    var timings: [FrameTiming] = []
                    for file in mine {
                        timings.append(FrameTiming.measure(file: file, cameraFormat: cameraFormat, reader: &reader, repeats: repeats))
                        await progress.advance()
                    }
                    return timings
                }
            }
            var all: [FrameTiming] = []
            var busiest = 0.0
            for try await part in group {
                all += part
                busiest = max(busiest, part.map { $0.latency * Double(repeats) }.reduce(0, +))
            }
            return (all, busiest)
        }
        await progress.finish()
        let wall = milliseconds(since: wallStart)
        let summary = BenchSummary(timings: results, threads: threads, repeats: repeats, wallMilliseconds: wall, busiestWorkerMilliseconds: busiestWorker)
        print(json ? summary.json : summary.table)
    }
}

func imageFiles(under path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
    let isImage = { (name: String) in ["jpg", "jpeg", "png"].contains((name as NSString).pathExtension.lowercased()) }
    if !isDirectory.boolValue { return isImage(path) ? [path] : [] }
    let enumerator = FileManager.default.enumerator(atPath: path)
    var out: [String] = []
    while let name = enumerator?.nextObject() as? String {
        if isImage(name) { out.append((path as NSString).appendingPathComponent(name)) }
    }
    return out
}

struct FrameTiming: Sendable {
    var file: String
    var loaded = false
    var decodedCodes = 0
    var failedCodes = 0
    var latency = 0.0      // median over repeats, ms
    var stats = FrameStatistics()

    static func measure(file: String, cameraFormat: CameraFormatOptions, reader: inout AppClipCodeReader,
                        repeats: Int) -> FrameTiming {
        var t = FrameTiming(file: file)
        guard let image = try? DecodedImage(contentsOfFile: file), let frame = try? cameraFormat.frame(from: image)
        else { return t }
        t.loaded = true
        var samples: [Double] = []
        for _ in 0..<repeats {
            let start = ContinuousClock.now
            guard let result = try? reader.read(frame) else { return t }
            samples.append(milliseconds(since: start))
            t.stats = result.statistics
            t.decodedCodes = result.codes.filter { $0.state == .decoded }.count
            t.failedCodes = result.codes.count - t.decodedCodes
        }
        t.latency = samples.sorted()[samples.count / 2]
        return t
    }
}

struct BenchSummary {
    let timings: [FrameTiming]
    let threads: Int
    let repeats: Int
    let wallMilliseconds: Double
    /// Reading time of the worker that read longest (all its repeats).
    let busiestWorkerMilliseconds: Double

    private var loaded: [FrameTiming] { timings.filter(\.loaded) }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    private var latencies: [Double] { loaded.map(\.latency) }
    /// Throughput of the readers alone: every read done, over the busiest worker's reading time.
    private var framesPerSecond: Double {
        let reads = Double(loaded.count * repeats)
        return busiestWorkerMilliseconds > 0 ? reads * 1000 / busiestWorkerMilliseconds : 0
    }
    private func mean(_ key: KeyPath<FrameStatistics, Double>) -> Double {
        loaded.isEmpty ? 0 : loaded.map { $0.stats[keyPath: key] }.reduce(0, +) / Double(loaded.count)
    }
    private var decodeRate: Double {
        loaded.isEmpty ? 0 : Double(loaded.filter { $0.decodedCodes > 0 }.count) / Double(loaded.count)
    }

    var table: String {
        let f = { (v: Double) in String(format: "%.3f", v) }
        return """
            frames            \(timings.count) (\(timings.count - loaded.count) unreadable files)
            threads           \(threads)
            latency ms        p50 \(f(percentile(latencies, 50)))  p90 \(f(percentile(latencies, 90)))  p99 \(f(percentile(latencies, 99)))  max \(f(latencies.max() ?? 0))
            frames/s          \(String(format: "%.1f", framesPerSecond)) (readers), \(String(format: "%.1f", Double(timings.count) * 1000 / max(wallMilliseconds, 1e-9))) (wall, with file decoding)
            stage mean ms     locate \(f(mean(\.locateMilliseconds)))  fit \(f(mean(\.fitMilliseconds)))  sample \(f(mean(\.sampleMilliseconds)))  decode \(f(mean(\.decodeMilliseconds)))
            decode rate       \(String(format: "%.1f", decodeRate * 100))% of frames with at least one decoded code
            codes             \(loaded.map(\.decodedCodes).reduce(0, +)) decoded, \(loaded.map(\.failedCodes).reduce(0, +)) located but not read
            """
    }

    var json: String {
        JSONValue.object([
            ("frames", .integer(timings.count)),
            ("unreadable_files", .integer(timings.count - loaded.count)),
            ("threads", .integer(threads)),
            ("latency_ms", .object([
                ("p50", .number(percentile(latencies, 50))), ("p90", .number(percentile(latencies, 90))),
                ("p99", .number(percentile(latencies, 99))), ("max", .number(latencies.max() ?? 0)),
            ])),
            ("frames_per_second", .number(framesPerSecond)),
            ("wall_frames_per_second", .number(Double(timings.count) * 1000 / max(wallMilliseconds, 1e-9))),
            ("stage_mean_ms", .object([
                ("locate", .number(mean(\.locateMilliseconds))), ("fit", .number(mean(\.fitMilliseconds))),
                ("sample", .number(mean(\.sampleMilliseconds))), ("decode", .number(mean(\.decodeMilliseconds))),
            ])),
            ("decode_rate", .number(decodeRate)),
            ("decoded_codes", .integer(loaded.map(\.decodedCodes).reduce(0, +))),
            ("failed_codes", .integer(loaded.map(\.failedCodes).reduce(0, +))),
        ]).text
    }
}

/// A progress bar on standard error when it is a terminal.
actor Progress {
    let total: Int
    let enabled: Bool
    private var done = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance() {
        done += 1
        guard enabled, done == total || done % max(1, total / 200) == 0 else { return }
        let width = 40
        let filled = width * done / max(1, total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
