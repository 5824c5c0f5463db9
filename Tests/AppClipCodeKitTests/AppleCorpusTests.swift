import AppClipCodeKit
import Foundation
import Testing

/// Apple's own SVGs are the exam: read from geometry, and regenerated bit for bit.
@Suite struct AppleCorpusTests {
    struct Entry {
        let file: URL
        let url: String
        let svg: String
    }

    static func entries() throws -> [Entry] {
        guard let apple = SharedMaterial.require(SharedMaterial.corpus.appendingPathComponent("apple")) else { return [] }
        let manifest = try SharedMaterial.json(apple.appendingPathComponent("manifest.json")) as? [[String: String]] ?? []
        return try manifest.compactMap { item in
            guard let name = item["file"], let url = item["url"] else { return nil }
            let file = apple.appendingPathComponent(name)
            return Entry(file: file, url: url, svg: try String(contentsOf: file, encoding: .utf8))
        }
    }

    @Test func manifestIsNotEmpty() throws {
        guard SharedMaterial.require(SharedMaterial.corpus) != nil else { return }
        #expect(try Self.entries().count >= 100)
    }

    @Test func everyAppleSVGDecodesFromItsArcs() throws {
        for entry in try Self.entries() {
            // The reader sees geometry only; the manifest's URL is the expected answer.
            let reading = try SVGCodeReading(svg: entry.svg)
            let decoded = try reading.decode()
            #expect(decoded.url == entry.url, "\(entry.file.lastPathComponent)")
            #expect(decoded.correctedSymbols == 0, "a clean SVG needs no correction: \(entry.file.lastPathComponent)")
            #expect(reading.logo == .camera)
            #expect(reading.palette.foreground == RGBColor(rgb: 0xFFFFFF))
            #expect(reading.palette.background == RGBColor(rgb: 0x000000))
        }
    }

    @Test func generatingEachURLGivesApplesRingBits() throws {
        for entry in try Self.entries() {
            let apple = try SVGCodeReading(svg: entry.svg).observation
            let bits = try RingCodec.encode(payload: URLCompression.compress(entry.url).payload)
            let ours = RingObservation(certain: bits)
            #expect(ours.arcStart == apple.arcStart, "gap bits differ for \(entry.file.lastPathComponent)")
            #expect(ours.third == apple.third, "color stream differs for \(entry.file.lastPathComponent)")
        }
    }

    @Test func generatedSVGReadsBackToTheSameBitsAsApples() throws {
        let generator = AppClipCodeGenerator(palette: try Palette.template(0), logo: .camera)
        for entry in try Self.entries() {
            let ours = try SVGCodeReading(svg: try generator.svg(for: entry.url))
            let apple = try SVGCodeReading(svg: entry.svg)
            #expect(ours.observation == apple.observation, "\(entry.file.lastPathComponent)")
        }
    }
}
