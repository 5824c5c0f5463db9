import CAppClipCore

/// A URL compressed the way Apple's generator compresses it.
public struct CompressedURL: Sendable, Equatable {
    /// The 16-byte payload, left-padded with zeros.
    public let payload: [UInt8]
    /// How many bits the compressed URL really uses (at most 128).
    public let bitCount: Int
}

/// URL ⇄ 128-bit payload, bit-exact with Apple's URL compression.
public enum URLCompression {
    /// Validates and compresses `url`; throws a typed error for URLs Apple's
    /// generator refuses (wrong scheme, characters, too long, …).
    public static func compress(_ url: String) throws(AppClipCodeError) -> CompressedURL {
        var payload = [UInt8](repeating: 0, count: Int(ACC_PAYLOAD_BYTES))
        var bits: Int32 = 0
        try check { acc_url_compress(url, url.utf8.count, &payload, &bits, $0) }
        return CompressedURL(payload: payload, bitCount: Int(bits))
    }

    /// Decompresses a 16-byte payload to a URL in Apple's canonical form.
    public static func decompress(_ payload: [UInt8]) throws(AppClipCodeError) -> String {
        guard payload.count == Int(ACC_PAYLOAD_BYTES) else {
            throw AppClipCodeError(kind: .bitCount, message: "a URL payload has 16 bytes, not \(payload.count)", value: payload.count)
        }
        var buffer = [CChar](repeating: 0, count: Int(ACC_URL_CAPACITY))
        var length = 0
        try check { acc_url_decompress(payload, &buffer, buffer.count, &length, $0) }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
