import CAppClipCore

/// What the rings show: gap bits per ring position and the color of every arc.
public struct CodeBits: Sendable, Equatable {
    /// 128 values, ring 1 first: 0 = an arc starts at this position, 1 = the previous arc runs through.
    public var gaps: [UInt8]
    /// One value per visible position, in order: 0 = foreground, 1 = third color.
    public var colors: [UInt8]
    /// 0 or 1 for URLs, 8 for binary tokens.
    public var version: Int

    init(_ bits: acc_code_bits) {
        var copy = bits
        gaps = withUnsafeBytes(of: &copy.gaps) { Array($0) }
        let all = withUnsafeBytes(of: &copy.colors) { Array($0) }
        colors = Array(all.prefix(Int(bits.color_count)))
        version = Int(bits.version)
    }
}

/// Soft observations of a code: 0.5 means "no idea" and becomes an erasure.
public struct RingObservation: Sendable, Equatable {
    /// P(an arc starts at this position), 128 values.
    public var arcStart: [Float]
    /// P(the stroke over this position is the third color), 128 values.
    public var third: [Float]

    public init(arcStart: [Float], third: [Float]) {
        self.arcStart = arcStart
        self.third = third
    }

    /// Observations that are certain of `bits` (what a perfect sampler would see).
    public init(certain bits: CodeBits) {
        var arcStart = [Float](repeating: 0, count: 128)
        var third = [Float](repeating: 0, count: 128)
        var arcIndex = -1
        var ringStart = 0
        for positions in [17, 23, 26, 29, 33] {
            // Positions before the ring's first visible one belong to its last arc.
            var colorOf = [Int](repeating: -1, count: positions)
            let firstVisible = (0..<positions).first { bits.gaps[ringStart + $0] == 0 }
            if let first = firstVisible {
                var current = -1
                for k in 0..<positions {
                    let p = (first + k) % positions
                    if bits.gaps[ringStart + p] == 0 {
                        arcIndex += 1
                        current = arcIndex
                    }
                    colorOf[p] = current
                }
            }
            for p in 0..<positions {
                arcStart[ringStart + p] = bits.gaps[ringStart + p] == 0 ? 1 : 0
                let c = colorOf[p]
                third[ringStart + p] = c >= 0 && c < bits.colors.count ? Float(bits.colors[c]) : 0.5
            }
            ringStart += positions
        }
        self.init(arcStart: arcStart, third: third)
    }

    var cValue: acc_ring_observation {
        var o = acc_ring_observation()
        withUnsafeMutableBytes(of: &o.p_arc_start) { raw in
            let floats = raw.bindMemory(to: Float.self)
            for i in 0..<min(128, arcStart.count) { floats[i] = arcStart[i] }
        }
        withUnsafeMutableBytes(of: &o.p_third) { raw in
            let floats = raw.bindMemory(to: Float.self)
            for i in 0..<min(128, third.count) { floats[i] = third[i] }
        }
        return o
    }

    init(_ o: acc_ring_observation) {
        var copy = o
        arcStart = withUnsafeBytes(of: &copy.p_arc_start) { Array($0.bindMemory(to: Float.self)) }
        third = withUnsafeBytes(of: &copy.p_third) { Array($0.bindMemory(to: Float.self)) }
    }
}

/// A payload recovered from the rings, with the evidence behind it.
public struct DecodedPayload: Sendable, Equatable {
    public let version: Int
    /// 16 bytes (compressed URL) or 20 bytes (version-8 token).
    public let payload: [UInt8]
    public let correctedSymbols: Int
    public let erasures: Int
    /// 0…1: how much correction capacity was left unused.
    public let margin: Float
    public let bits: CodeBits
    /// The URL, for versions 0 and 1.
    public var url: String? { payload.count == 16 ? try? URLCompression.decompress(payload) : nil }

    init(_ r: acc_decode_result) {
        var copy = r
        version = Int(r.version)
        payload = withUnsafeBytes(of: &copy.payload) { Array($0.prefix(Int(r.payload_length))) }
        correctedSymbols = Int(r.corrected_symbols)
        erasures = Int(r.erasures)
        margin = r.margin
        bits = CodeBits(r.bits)
    }
}

/// Payload ⇄ ring bits: Reed-Solomon, scrambling, permutation, color stream.
public enum RingCodec {
    public static func encode(payload: [UInt8]) throws(AppClipCodeError) -> CodeBits {
        guard payload.count == Int(ACC_PAYLOAD_BYTES) else {
            throw AppClipCodeError(kind: .bitCount, message: "a URL payload has 16 bytes, not \(payload.count)", value: payload.count)
        }
        var bits = acc_code_bits()
        try check { acc_codec_encode(payload, &bits, $0) }
        return CodeBits(bits)
    }

    /// Encodes a 20-byte version-8 binary token.
    public static func encode(token: [UInt8]) throws(AppClipCodeError) -> CodeBits {
        guard token.count == Int(ACC_TOKEN_BYTES) else {
            throw AppClipCodeError(kind: .bitCount, message: "a token has 20 bytes, not \(token.count)", value: token.count)
        }
        var bits = acc_code_bits()
        try check { acc_codec_encode_token(token, &bits, $0) }
        return CodeBits(bits)
    }

    /// Decodes observations; succeeds only when every error-correction check passes.
    public static func decode(_ observation: RingObservation) throws(AppClipCodeError) -> DecodedPayload {
        guard observation.arcStart.count == 128, observation.third.count == 128 else {
            throw AppClipCodeError(kind: .bitCount, message: "observations need 128 ring positions")
        }
        var o = observation.cValue
        var result = acc_decode_result()
        try check { acc_codec_decode(&o, &result, $0) }
        return DecodedPayload(result)
    }
}
