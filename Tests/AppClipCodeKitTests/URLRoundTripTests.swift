import AppClipCodeKit
import Testing

@Suite struct URLRoundTripTests {
    @Test func thousandsOfGrammarURLsRoundTripOrAreRefusedAsTooLong() throws {
        var grammar = URLGrammar(seed: 0xA5A5_2024)
        var fitted = 0, tooLong = 0
        var formsSeen = Set<String>()
        for _ in 0..<6000 {
            let url = grammar.url()
            do {
                let compressed = try URLCompression.compress(url)
                #expect(compressed.bitCount <= 128 && compressed.bitCount > 0, "\(url)")
                let back = try URLCompression.decompress(compressed.payload)
                #expect(back == url, "round trip changed \(url) into \(back)")
                fitted += 1
                formsSeen.insert(Self.shape(of: compressed.payload, bits: compressed.bitCount))
            } catch {
                // Refused, not truncated: the error carries the real size.
                #expect(error.kind == .urlTooLong, "\(url): \(error)")
                #expect((error.value ?? 0) > 128, "\(url)")
                tooLong += 1
            }
        }
        #expect(fitted > 2500)
        #expect(tooLong > 100)
        // Template and non-template, and every host format, were exercised.
        for form in ["t0h0", "t0h1", "t0h2", "t1h0", "t1h1", "t1h2"] {
            #expect(formsSeen.contains(form), "no round trip used form \(form)")
        }
    }

    /// Template bit and host format, read from the payload's first bits after the marker.
    static func shape(of payload: [UInt8], bits: Int) -> String {
        let start = 128 - bits
        func bit(_ i: Int) -> Int { Int((payload[i / 8] >> (7 - UInt8(i % 8))) & 1) }
        let templateBit = bit(start + 1)
        let hostFormat = bit(start + 3) == 0 ? 0 : (bit(start + 4) == 0 ? 1 : 2)
        return "t\(templateBit)h\(hostFormat)"
    }

    @Test(arguments: [
        ("HTTPS://Example.COM/a", "https://example.com/a"),
        ("https://example.com?p=1", "https://example.com/?p=1"),
        ("https://example.com?", "https://example.com"),
        ("https://example.com#", "https://example.com"),
        ("https://example.com/?", "https://example.com/"),
        ("https://example.com/a[1]", "https://example.com/a%5B1%5D"),
        ("https://example.com/shop?&p=a&&p1=b", "https://example.com/shop?p=a&p1=b"),
        ("https://appclip.example.com/x", "https://appclip.example.com/x"),
    ])
    func canonicalForms(input: String, canonical: String) throws {
        let payload = try URLCompression.compress(input).payload
        #expect(try URLCompression.decompress(payload) == canonical)
        #expect(try URLCompression.compress(canonical).payload == payload)
    }

    @Test func aMaximalURLFitsAndOneMoreCharacterDoesNot() throws {
        // Grow a path until it no longer fits: the last accepted one uses at most 128 bits.
        var path = "/"
        var last: CompressedURL?
        for character in "qzxjkvqzxjkvqzxjkvqzxjkvqzxjkvqzxjkv" {
            path.append(character)
            do {
                last = try URLCompression.compress("https://example.com" + path)
            } catch {
                #expect(error.kind == .urlTooLong)
                #expect((error.value ?? 0) > 128)
                break
            }
        }
        #expect((last?.bitCount ?? 0) <= 128)
        #expect((last?.bitCount ?? 0) > 100)
    }
}
