import AppClipCodeKit
import Foundation
import Testing

/// Exact 16-byte payloads that Apple's compression produced for known URLs.
@Suite struct PayloadVectorTests {
    static func vectors() throws -> [(url: String, payload: [UInt8])] {
        guard let file = SharedMaterial.require(SharedMaterial.corpus.appendingPathComponent("payload_vectors.json")) else { return [] }
        let items = try SharedMaterial.json(file) as? [[String: String]] ?? []
        return items.compactMap { item in
            guard let url = item["url"], let hex = item["payload_hex"] else { return nil }
            return (url, hexBytes(hex))
        }
    }

    @Test func everyVectorCompressesToApplesPayload() throws {
        let vectors = try Self.vectors()
        if SharedMaterial.isCI { #expect(vectors.count >= 90) }
        for v in vectors {
            let compressed = try URLCompression.compress(v.url)
            #expect(compressed.payload == v.payload, "\(v.url)")
        }
    }

    @Test func everyVectorDecompressesBack() throws {
        for v in try Self.vectors() {
            #expect(try URLCompression.decompress(v.payload) == v.url)
        }
    }

    @Test func bitCountMatchesTheBeginMarker() throws {
        // The payload is the raw bits left-padded with zeros: the first 1 bit is the marker.
        for v in try Self.vectors() {
            let compressed = try URLCompression.compress(v.url)
            let leadingZeros = v.payload.reduce(into: (count: 0, done: false)) { acc, byte in
                guard !acc.done else { return }
                if byte == 0 { acc.count += 8 } else { acc.count += byte.leadingZeroBitCount; acc.done = true }
            }.count
            #expect(compressed.bitCount == 128 - leadingZeros, "\(v.url)")
        }
    }
}
