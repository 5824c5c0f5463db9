import AppClipCodeKit
import Testing

/// The generator's rules: typed errors that say what and where.
@Suite struct URLValidationTests {
    @Test(arguments: [
        ("http://example.com", AppClipCodeError.Kind.urlScheme, 0),
        ("ftp://example.com", .urlScheme, 0),
        ("example.com", .urlScheme, 0),
        ("https://", .urlNoHost, 8),
        ("https:///path", .urlNoHost, 8),
        ("https://user@example.com", .urlUserInfo, 12),
        ("https://example.com:443/", .urlPort, 19),
        ("https://exa_mple.com", .urlHostCharacter, 11),
        ("https://xn--bcher-kva.example", .urlPunycode, 8),
        ("https://example.xn--p1ai", .urlPunycode, 16),
        ("https://example.com/a b", .urlCharacter, 21),
        ("https://example.com/a|b", .urlCharacter, 21),
        ("https://example.com/100%", .urlCharacter, 23),
        ("https://example.com/%zz", .urlCharacter, 20),
        ("https://example.com/caf\u{E9}", .urlCharacter, 23),
        ("https://example.com/a#b#c", .urlCharacter, 23),
        ("https://example.com/{x}", .urlCharacter, 20),
    ])
    func refused(url: String, kind: AppClipCodeError.Kind, position: Int) {
        do {
            _ = try URLCompression.compress(url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.kind == kind, "\(url): \(error)")
            #expect(error.position == position, "\(url): \(error)")
            #expect(error.isInvalidURL)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func tooLongSaysHowManyBits() {
        let url = "https://example.com/" + String(repeating: "Zq7x", count: 20)
        do {
            _ = try URLCompression.compress(url)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .urlTooLong)
            #expect((error.value ?? 0) > 128)
            #expect(error.message.contains("\(error.value ?? -1) bits"))
        }
    }

    @Test func payloadsThatNoURLCompressesToAreRefused() {
        #expect(throws: AppClipCodeError.self) { try URLCompression.decompress([UInt8](repeating: 0, count: 16)) }
        #expect(throws: AppClipCodeError.self) { try URLCompression.decompress([1, 2, 3]) }
        // A whole-host payload whose host is empty: marker, template 0, no subdomain, format 11, nothing.
        var p = [UInt8](repeating: 0, count: 16)
        p[15] = 0b0001_0011
        #expect(throws: AppClipCodeError.self) { try URLCompression.decompress(p) }
    }

    @Test func randomPayloadsNeverCrashAndDecodedOnesAreValidURLs() {
        var random = SeededRandom(seed: 7)
        var decoded = 0
        for _ in 0..<20000 {
            var p = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            p[0] = 0; p[1] = UInt8.random(in: 0...3, using: &random)
            if let url = try? URLCompression.decompress(p) {
                decoded += 1
                #expect(url.hasPrefix("https://"))
            }
        }
        #expect(decoded > 0)
    }
}
