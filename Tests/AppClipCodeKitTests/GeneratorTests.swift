import AppClipCodeKit
import Foundation
import Testing

@Suite struct GeneratorTests {
    /// Apple's documentation prints the `templates` listing; our palettes must match it.
    @Test func templatesMatchApplesPublishedListing() throws {
        let doc = SharedMaterial.root.appendingPathComponent("seeds/app-clips-documentation.md")
        guard SharedMaterial.require(doc) != nil else { return }
        let text = try String(contentsOf: doc, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("Index: ") }
        #expect(lines.count == 18)
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 6, let index = Int(parts[1]) else {
                Issue.record("unexpected line \(line)")
                continue
            }
            let palette = try Palette.template(index)
            #expect(palette.foreground.appleHex == parts[3])
            #expect(palette.background.appleHex == parts[5])
        }
    }

    @Test func templateIndexOutOfRangeIsAnError() {
        #expect(throws: AppClipCodeError.self) { try Palette.template(18) }
        #expect(throws: AppClipCodeError.self) { try Palette.template(-1) }
    }

    @Test func invalidURLsAreNotDrawn() {
        let generator = AppClipCodeGenerator(palette: Palette(foreground: RGBColor(rgb: 0), background: RGBColor(rgb: 0xFFFFFF)))
        #expect(throws: AppClipCodeError.self) { try generator.svg(for: "http://example.com") }
        #expect(throws: AppClipCodeError.self) { try generator.rgba(for: "https://example.com", size: 4) }
    }

    /// Our rasterizer against an independent renderer (rsvg-convert) of our SVG.
    @Test func rasterMatchesAnIndependentRendering() throws {
        guard let rsvg = Rsvg.locate() else { return }
        let size = 200
        for (index, logo) in [(1, Logo.camera), (12, Logo.nfc), (5, Logo.none)] {
            let generator = AppClipCodeGenerator(palette: try Palette.template(index), logo: logo)
            let url = "https://appclip.example.com/shop?p=\(index)"
            let ours = try generator.rgba(for: url, size: size)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("acc-raster-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let svgFile = dir.appendingPathComponent("code.svg"), pngFile = dir.appendingPathComponent("code.png")
            #expect(try Rsvg.render(generator.svg(for: url), svgFile: svgFile, pngFile: pngFile, with: rsvg,
                                    arguments: ["-w", "\(size)", "-h", "\(size)"]) == 0)
            let theirs = try DecodedImage(contentsOfFile: pngFile.path)
            #expect(theirs.width == size && theirs.height == size)
            // Compare color where both are opaque (inside the disc).
            var total = 0.0, count = 0
            let channels = theirs.format == .rgb8 ? 3 : 1
            for y in 0..<size {
                for x in 0..<size where ours[(y * size + x) * 4 + 3] == 255 {
                    for c in 0..<min(3, channels) {
                        let a = Double(ours[(y * size + x) * 4 + c])
                        let b = Double(theirs.pixels[y * theirs.bytesPerRow + x * channels + c])
                        total += abs(a - b)
                        count += 1
                    }
                }
            }
            let meanDifference = total / Double(max(count, 1))
            #expect(count > size * size, "most of the disc is opaque")
            #expect(meanDifference < 4, "template \(index): mean difference \(meanDifference) per channel")
        }
    }
}
