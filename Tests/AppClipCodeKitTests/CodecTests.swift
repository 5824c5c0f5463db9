import AppClipCodeKit
import Testing

/// The ring codec read softly: erasures and errors within what the codes correct are
/// read back; heavier damage fails, and never yields a payload the code does not hold.
@Suite struct CodecTests {
    static func randomCodes(count: Int, seed: UInt64) -> [(url: String, payload: [UInt8], bits: CodeBits)] {
        var grammar = URLGrammar(seed: seed)
        var out: [(String, [UInt8], CodeBits)] = []
        while out.count < count {
            let url = grammar.url()
            guard let c = try? URLCompression.compress(url), let bits = try? RingCodec.encode(payload: c.payload) else { continue }
            out.append((url, c.payload, bits))
        }
        return out
    }

    @Test func cleanObservationsDecode() throws {
        for code in Self.randomCodes(count: 300, seed: 1) {
            let decoded = try RingCodec.decode(RingObservation(certain: code.bits))
            #expect(decoded.payload == code.payload)
            #expect(decoded.url == code.url)
            #expect(decoded.bits == code.bits)
            #expect(decoded.correctedSymbols == 0)
        }
    }

    @Test func versionsZeroAndOneAreBothUsed() {
        let versions = Set(Self.randomCodes(count: 400, seed: 2).map(\.bits.version))
        #expect(versions == [0, 1])
    }

    /// Ring positions of the constant template byte (pre-permutation bits 120…127),
    /// from the format's facts.
    static func templatePositions() throws -> Set<Int> {
        let url = SharedMaterial.root.appendingPathComponent("format/tables.json")
        guard SharedMaterial.require(url) != nil,
              let tables = try SharedMaterial.json(url) as? [String: Any],
              let bits = tables["bits"] as? [String: Any],
              let lut = bits["gaps_bits_order_lut"] as? [Int] else { return [] }
        return Set(lut[120..<128])
    }

    @Test func oneWrongGapBitIsCorrected() throws {
        let template = try Self.templatePositions()
        guard !template.isEmpty else { return }
        for (index, code) in Self.randomCodes(count: 128, seed: 3).enumerated() {
            var o = RingObservation(certain: code.bits)
            let p = index  // every position once
            o.arcStart[p] = 1 - o.arcStart[p]
            do {
                let decoded = try RingCodec.decode(o)
                #expect(!template.contains(p), "a confident template mismatch must not pass")
                #expect(decoded.payload == code.payload)
                #expect(decoded.correctedSymbols >= 1)
            } catch {
                // Only the constant template byte refuses: it has no correction, it tells a wrong rotation.
                #expect(template.contains(p), "position \(p): \(error)")
            }
        }
    }

    /// One unknown position erases at most one symbol of one word, which leaves every
    /// word checked: it must always read.
    @Test func oneUnknownPositionAlwaysReads() throws {
        for (index, code) in Self.randomCodes(count: 128, seed: 9).enumerated() {
            var o = RingObservation(certain: code.bits)
            o.arcStart[index] = 0.5
            o.third[index] = 0.5
            let decoded = try RingCodec.decode(o)
            #expect(decoded.payload == code.payload, "position \(index)")
        }
    }

    @Test func uncertainSamplesBecomeErasures() throws {
        var random = SeededRandom(seed: 4)
        var decodedCount = 0
        for code in Self.randomCodes(count: 200, seed: 4) {
            var o = RingObservation(certain: code.bits)
            // Blur two random positions to "no idea".
            for _ in 0..<2 {
                let p = Int.random(in: 0..<128, using: &random)
                o.arcStart[p] = 0.5
                o.third[p] = 0.5
            }
            if let decoded = try? RingCodec.decode(o) {
                #expect(decoded.payload == code.payload)
                decodedCount += 1
            }
        }
        // Two unknown positions may land in one word and spend all its parity; such a word
        // is unchecked and refused by design. Most codes still read.
        #expect(decodedCount >= 140)
    }

    @Test func heavyDamageNeverYieldsAWrongPayload() {
        var random = SeededRandom(seed: 5)
        var wrong = 0, refused = 0
        for code in Self.randomCodes(count: 300, seed: 5) {
            for _ in 0..<10 {
                var o = RingObservation(certain: code.bits)
                for _ in 0..<Int.random(in: 4...40, using: &random) {
                    let p = Int.random(in: 0..<128, using: &random)
                    o.arcStart[p] = Float.random(in: 0...1, using: &random)
                    o.third[p] = Float.random(in: 0...1, using: &random)
                }
                if let decoded = try? RingCodec.decode(o) {
                    if decoded.payload != code.payload { wrong += 1 }
                } else {
                    refused += 1
                }
            }
        }
        #expect(wrong == 0)
        #expect(refused > 0)
    }

    @Test func pureNoiseIsNeverAccepted() {
        var random = SeededRandom(seed: 6)
        for _ in 0..<20000 {
            let o = RingObservation(
                arcStart: (0..<128).map { _ in Float(Int.random(in: 0...1, using: &random)) },
                third: (0..<128).map { _ in Float(Int.random(in: 0...1, using: &random)) })
            #expect((try? RingCodec.decode(o)) == nil)
        }
    }

    @Test func versionEightTokensReadOnlyFromConfidentSamples() throws {
        var random = SeededRandom(seed: 8)
        for _ in 0..<200 {
            let token = (0..<20).map { _ in UInt8.random(in: 0...255, using: &random) }
            let bits = try RingCodec.encode(token: token)
            #expect(bits.version == 8)
            let decoded = try RingCodec.decode(RingObservation(certain: bits))
            #expect(decoded.version == 8)
            #expect(decoded.payload == token)
            #expect(decoded.url == nil)
            // With no error correction, one doubtful gap sample outside the template
            // and metadata refuses the whole token rather than guess.
            var doubtful = RingObservation(certain: bits)
            let template = try Self.templatePositions()
            guard !template.isEmpty else { return }
            var position = 0
            while position < 127 && (template.contains(position) || bits.gaps[position] != 1) { position += 1 }
            doubtful.arcStart[position] = 0.45
            if let misread = try? RingCodec.decode(doubtful) { #expect(misread.payload == token) }
        }
    }

    @Test func observationsOutsideZeroToOneAreRefused() {
        var o = RingObservation(arcStart: [Float](repeating: 0.5, count: 128), third: [Float](repeating: 0.5, count: 128))
        o.arcStart[3] = .nan
        #expect(throws: AppClipCodeError.self) { try RingCodec.decode(o) }
        #expect(throws: AppClipCodeError.self) { try RingCodec.decode(RingObservation(arcStart: [0], third: [0])) }
    }
}
