import AppClipCodeKit
import Foundation
import Testing

/// Hostile, truncated and garbage SVG gets a typed error, never a crash or a wrong URL.
@Suite struct SVGReaderTests {
    static let sample: String = {
        let generator = AppClipCodeGenerator(palette: Palette(foreground: RGBColor(rgb: 0x123456), background: RGBColor(rgb: 0xFFFFFF)), logo: .nfc)
        return (try? generator.svg(for: "https://appclip.example.com/shop?p=42")) ?? ""
    }()

    @Test func customColorsAndNFCLogoReadBack() throws {
        let reading = try SVGCodeReading(svg: Self.sample)
        #expect(try reading.decode().url == "https://appclip.example.com/shop?p=42")
        #expect(reading.logo == .nfc)
        #expect(reading.palette.foreground == RGBColor(rgb: 0x123456))
        #expect(reading.palette.background == RGBColor(rgb: 0xFFFFFF))
    }

    @Test func everyTruncationFailsCleanlyOrReadsTheRightURL() {
        let bytes = Array(Self.sample.utf8)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            let text = String(decoding: bytes.prefix(cut), as: UTF8.self)
            do {
                let url = try SVGCodeReading(svg: text).decode().url
                #expect(url == "https://appclip.example.com/shop?p=42")
            } catch {
                #expect([.svgMalformed, .svgNotACode, .uncorrectable].contains(error.kind), "cut \(cut): \(error)")
            }
        }
    }

    @Test(arguments: [
        "", "not xml at all", "<svg", "<svg></g>", "<svg><path d=\"M 1e999 0 A 1 1 0 0 0 2 2\"/></svg>",
        "<svg><circle cx=\"400\" cy=\"400\" r=\"400\" style=\"fill:#000000\"/><path d=\"M NaN 0 A 1 1 0 0 0 2 2\" style=\"stroke:#ffffff\"/></svg>",
        "<svg><circle cx=\"400\" cy=\"400\" r=\"0\" style=\"fill:#000000\"/></svg>",
        "<svg><circle cx=\"400\" cy=\"400\" r=\"400\" style=\"fill:#000000\"/><path d=\"M 577 400 L 600 400\" style=\"stroke:#ffffff\"/></svg>",
        "<svg><circle cx=\"400\" cy=\"400\" r=\"400\" style=\"fill:#000000\"/><path d=\"M 1 1 A 177 177 0 0 0 2 2\" style=\"stroke:#ffffff\"/></svg>",
        "<svg><g transform=\"rotate(\"><circle/></g></svg>",
        String(repeating: "<g>", count: 5000),
        "<svg><path d=\"" + String(repeating: "L 1 1 ", count: 200_000) + "\"/></svg>",
    ])
    func garbageIsRefusedWithATypedError(svg: String) {
        do {
            _ = try SVGCodeReading(svg: svg).decode()
            Issue.record("accepted garbage")
        } catch {
            #expect([.svgMalformed, .svgNotACode, .uncorrectable].contains(error.kind), "\(error)")
        }
    }

    @Test func randomByteFlipsNeverGiveAWrongURL() {
        var random = SeededRandom(seed: 11)
        let bytes = Array(Self.sample.utf8)
        for _ in 0..<400 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0x20...0x7E, using: &random)
            }
            if let url = try? SVGCodeReading(svg: String(decoding: mutated, as: UTF8.self)).decode().url {
                #expect(url == "https://appclip.example.com/shop?p=42")
            }
        }
    }
}
