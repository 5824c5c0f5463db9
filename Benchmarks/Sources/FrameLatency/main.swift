import AppClipCodeKit
import ArgumentParser
import BenchmarkSupport
import Foundation

// The reader's latency targets are stated per frame size, with and without a code, on one
// core, and for tracked frames; and memory must not grow once the reader is warm. This
// measures exactly that through the Swift API: each frame is decoded from its file first
// (not timed), read `repeats` times by one warm reader, and the median of each frame's
// times is taken; groups report the median over their frames. A frame where codes were found is
// then read with the homographies its last read found as hints, as a session's next frame would be.
@main
struct FrameLatency: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Single-thread read latency per frame group (size x code or none), tracked reads, memory growth once warm.",
        discussion: """
            Frames with a ground-truth file beside them (tools/synth: FILE.json with "codes") are grouped \
            by whether they hold a code; others count as "unknown". Run on a quiet machine, pinned to one \
            core: taskset -c 0 swift run -c release FrameLatency ../out/frames/std/camera ../out/frames/std/negatives
            """)

    @Argument(help: "Folders of frames (searched recursively) or frame files.")
    var paths: [String]

    @Option(help: "Reads per frame; the median counts.")
    var repeats = 5

    @Option(help: "Frames per group (the first ones in name order).")
    var count = 25

    func validate() throws {
        guard repeats >= 1, count >= 1 else { throw ValidationError("--repeats and --count must be at least 1.") }
    }

    func run() throws {
        let groups = try frameGroups()
        guard !groups.isEmpty else { throw ValidationError("No .jpg or .png frames under \(paths.joined(separator: ", ")).") }
        var reader = try AppClipCodeReader()
        print("group                          frames   median ms   tracked median ms")
        for (key, files) in groups.sorted(by: { $0.key < $1.key }) {
            var untracked: [Double] = [], tracked: [Double] = []
            for file in files {
                let image = try DecodedImage(contentsOfFile: file)
                var times: [Double] = []
                var hints: [Homography] = []
                for _ in 0..<repeats {
                    let start = ContinuousClock.now
                    let result = try reader.read(image)
                    times.append(milliseconds(since: start))
                    hints = result.codes.map(\.homography)
                }
                untracked.append(median(times))
                guard !hints.isEmpty else { continue }
                times.removeAll()
                for _ in 0..<repeats {
                    let start = ContinuousClock.now
                    _ = try reader.read(image, hints: hints)
                    times.append(milliseconds(since: start))
                }
                tracked.append(median(times))
            }
            let trackedText = tracked.isEmpty ? "" : String(format: "%8.2f (%d frames)", median(tracked), tracked.count)
            print(key.padding(toLength: 30, withPad: " ", startingAt: 0), String(format: "%6d   %9.2f   ", files.count, median(untracked)) + trackedText)
        }
        // Memory once warm: one frame of each group, decoded once, read over and over; what
        // the reader holds must not grow with the reads.
        let kept = try groups.values.compactMap(\.first).map { try DecodedImage(contentsOfFile: $0) }
        for _ in 0..<10 { for image in kept { _ = try reader.read(image) } }
        let residentWarm = residentBytes()
        let passes = 100
        for _ in 0..<passes { for image in kept { _ = try reader.read(image) } }
        let residentAfter = residentBytes()
        if residentWarm >= 0 {
            print(String(format: "resident memory: %.1f MiB warm, %+.0f KiB after %d more reads", Double(residentWarm) / 1_048_576,
                         Double(residentAfter - residentWarm) / 1024, passes * kept.count))
        }
    }

    /// "camera 1280x720" style keys: whether the frame holds a code, and its size.
    func frameGroups() throws -> [String: [String]] {
        var groups: [String: [String]] = [:]
        for file in paths.flatMap(frames(under:)).sorted() {
            let truthFile = (file as NSString).deletingPathExtension + ".json"
            var holds = "unknown"
            var size = ""
            if let data = FileManager.default.contents(atPath: truthFile),
               let truth = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                holds = ((truth["codes"] as? [Any])?.isEmpty ?? true) ? "no code" : "with a code"
                if let w = truth["width"] as? Int, let h = truth["height"] as? Int { size = "\(w)x\(h)" }
            }
            if size.isEmpty {
                let image = try DecodedImage(contentsOfFile: file)
                size = "\(image.width)x\(image.height)"
            }
            let key = "\(size) \(holds)"
            if groups[key, default: []].count < count { groups[key, default: []].append(file) }
        }
        return groups
    }

    func frames(under path: String) -> [String] {
        let isImage = { (p: String) in ["jpg", "jpeg", "png"].contains((p as NSString).pathExtension.lowercased()) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return isImage(path) ? [path] : [] }
        let names = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        return names.filter(isImage).map { (path as NSString).appendingPathComponent($0) }
    }
}

func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}
