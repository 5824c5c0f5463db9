import AppClipCodeKit
import Foundation
import Testing

/// Ground truth made by no one on this project: ../shared beside the checkout
/// (override with APPCLIP_SHARED). Missing material skips a test locally and fails it under CI.
enum SharedMaterial {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var root: URL {
        if let override = ProcessInfo.processInfo.environment["APPCLIP_SHARED"] { return URL(fileURLWithPath: override) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    static var corpus: URL { root.appendingPathComponent("corpus") }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The folder, or nil after recording why (an issue under CI, a note otherwise).
    static func require(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        if FileManager.default.fileExists(atPath: url.path) { return url }
        if isCI {
            Issue.record("shared material missing under CI: \(url.path)", sourceLocation: sourceLocation)
        } else {
            print("skipped: \(url.path) is not here")
        }
        return nil
    }

    static func json(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }
}

/// A small deterministic generator (SplitMix64) so every run tests the same cases.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return out
}

/// rsvg-convert: the independent renderer the tests draw SVGs with.
enum Rsvg {
    /// Its path, or nil when it is not installed (an issue under CI, where it must be).
    static func locate() -> String? {
        let found = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first(where: FileManager.default.isExecutableFile(atPath:))
        if found == nil && SharedMaterial.isCI { Issue.record("rsvg-convert is not installed") }
        return found
    }

    /// A whole SVG document as an element to place inside a larger drawing, `size` units square
    /// (its XML declaration dropped, its root given that width and height).
    static func nested(_ svg: String, size: Double) -> String {
        var inner = svg
        if let header = inner.range(of: "?>") { inner = String(inner[header.upperBound...]) }
        if let root = inner.range(of: "<svg ") {
            inner.replaceSubrange(root, with: "<svg width=\"\(size)\" height=\"\(size)\" ")
        }
        return inner
    }

    /// Draws each drawing with rsvg-convert and reads the picture (one reader for all): how many
    /// read their own URL, how many decodes read another (each also recorded as an issue), and
    /// the names of those not read.
    static func readDrawings(_ drawings: [(name: String, svg: String, url: String)], with rsvg: String) throws
        -> (read: Int, wrong: Int, unread: [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("acc-drawings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var reader = try AppClipCodeReader()
        var read = 0, wrong = 0
        var unread: [String] = []
        for (index, drawing) in drawings.enumerated() {
            let svgFile = dir.appendingPathComponent("code\(index).svg"), pngFile = dir.appendingPathComponent("code\(index).png")
            #expect(try render(drawing.svg, svgFile: svgFile, pngFile: pngFile, with: rsvg) == 0)
            let result = try reader.read(DecodedImage(contentsOfFile: pngFile.path))
            var right = false
            for code in result.codes where code.state == .decoded {
                #expect(code.url == drawing.url, "\(drawing.name) (code \(index)): read \(code.url ?? "nil")")
                if code.url == drawing.url { right = true } else { wrong += 1 }
            }
            if right { read += 1 } else { unread.append(drawing.name) }
        }
        return (read, wrong, unread)
    }

    /// Writes `svg` to `svgFile`, draws it into `pngFile` (with any extra arguments, e.g. a size)
    /// and returns rsvg-convert's exit status.
    static func render(_ svg: String, svgFile: URL, pngFile: URL, with rsvg: String, arguments: [String] = []) throws -> Int32 {
        try svg.write(to: svgFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rsvg)
        process.arguments = arguments + ["-o", pngFile.path, svgFile.path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Thirty codes from our generator on its white-background templates (1, 3, …, 17, each
/// foreground colour in turn): the drawings the occlusion and glare tests lay objects over.
/// With `whiteForeground`, the same URLs on the templates that swap those colours (0, 2, …, 16:
/// white strokes on each colour).
enum WhiteTemplateCodes {
    static let urls = (0..<10).map { "https://example.com/shop?p=\($0)" } + (0..<10).map { "https://tea.io/menu?id=\(100 + $0)" }
        + (0..<10).map { "https://a.co/x\($0)" }

    /// Each code's SVG with `wrap` applied, named by its URL, for `Rsvg.readDrawings`.
    static func drawings(whiteForeground: Bool = false, _ wrap: (String, Int) -> String) throws
        -> [(name: String, svg: String, url: String)] {
        try urls.enumerated().map { index, url in
            let template = 2 * (index % 9) + (whiteForeground ? 0 : 1)
            let svg = try AppClipCodeGenerator(palette: .template(template), logo: .camera).svg(for: url)
            return (name: url, svg: wrap(svg, index), url: url)
        }
    }
}
