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
            let decoded = try RingCodec.decode(o)
            #expect(decoded.payload == code.payload, "position \(p)")
            if template.contains(p) {
                // The constant template byte has no correction: one misread bit of it is
                // tolerated (and paid for in evidence), the payload words are untouched.
                #expect(decoded.correctedSymbols == 0)
            } else {
                #expect(decoded.correctedSymbols >= 1, "position \(p)")
            }
        }
    }

    /// Two confidently wrong template bits tell a wrong rotation or no code at all.
    @Test func twoWrongTemplateBitsAreRefused() throws {
        let template = try Self.templatePositions().sorted()
        guard template.count == 8 else { return }
        for (index, code) in Self.randomCodes(count: 28, seed: 12).enumerated() {
            var o = RingObservation(certain: code.bits)
            let a = template[index % 8], b = template[(index / 8 + index + 1) % 8]
            guard a != b else { continue }
            o.arcStart[a] = 1 - o.arcStart[a]
            o.arcStart[b] = 1 - o.arcStart[b]
            #expect(throws: AppClipCodeError.self) { try RingCodec.decode(o) }
        }
    }

    /// Each ring position's arc, as its index in the color stream (-1 in a ring with no
    /// arc), from the code's own bits: arcs are numbered in position order, ring by ring,
    /// and an arc covers its position and the following ones up to the next visible one.
    static func colorStreamIndex(_ bits: CodeBits) -> [Int] {
        let ringPositions = [17, 23, 26, 29, 33]
        var out = [Int](repeating: -1, count: 128)
        var first = 0, arc = -1
        for n in ringPositions {
            var indexAt = [Int](repeating: -1, count: n)
            for p in 0..<n where bits.gaps[first + p] == 0 {
                arc += 1
                indexAt[p] = arc
            }
            if let start = indexAt.firstIndex(where: { $0 >= 0 }) {
                var current = -1
                for k in 0..<n {
                    let q = (start + k) % n
                    if indexAt[q] >= 0 { current = indexAt[q] }
                    out[first + q] = current
                }
            }
            first += n
        }
        return out
    }

    /// The color stream's separator (its first bit, always foreground) only confirms the
    /// layout: one misread separator costs evidence but does not refuse a clean code.
    @Test func aMisreadSeparatorStillReads() throws {
        for code in Self.randomCodes(count: 100, seed: 13) {
            var o = RingObservation(certain: code.bits)
            for (position, arc) in Self.colorStreamIndex(code.bits).enumerated() where arc == 0 {
                o.third[position] = 1  // the separator arc read as third color
            }
            let decoded = try RingCodec.decode(o)
            #expect(decoded.payload == code.payload)
        }
    }

    /// One position whose arc start is unknown erases at most one symbol of the gap or
    /// metadata word, which leaves it checked: it must always read.
    @Test func oneUnknownArcStartAlwaysReads() throws {
        for (index, code) in Self.randomCodes(count: 128, seed: 9).enumerated() {
            var o = RingObservation(certain: code.bits)
            o.arcStart[index] = 0.5
            let decoded = try RingCodec.decode(o)
            #expect(decoded.payload == code.payload, "position \(index)")
        }
    }

    /// A position with nothing known about it always reads. Where it is a whole arc of the
    /// arc word (two parity symbols, nothing else behind it), the arc's colour is unseen,
    /// and both colours are tried; the codec used to guess foreground there and refuse
    /// every code whose arc was third-coloured.
    @Test func oneUnknownPositionAlwaysReads() throws {
        for (index, code) in Self.randomCodes(count: 128, seed: 9).enumerated() {
            var o = RingObservation(certain: code.bits)
            o.arcStart[index] = 0.5
            o.third[index] = 0.5
            let decoded = try RingCodec.decode(o)
            #expect(decoded.payload == code.payload, "position \(index)")
        }
    }

    /// Whole arcs of the arc word whose colour was not seen (every position 0.5, as glare's
    /// core and objects over the code are reported), chosen among the third-coloured ones so
    /// that a guess of foreground is wrong for each: up to what the word's 16 parity bits pay
    /// for (each unknown bit spends one, and 8 must be left) they read, beyond they are
    /// refused, and never as another payload. A word is also refused when another codeword
    /// is one misread colour away from it (the unseen bits and one more): with one unseen
    /// bit that needs a codeword of two bits, which RS(7,5) has not (three symbols differ at
    /// least), so every code reads; with k unseen bits each of the other 56 − k bits closes
    /// such a codeword with a chance of about 2^(k−16), under 3 % of the codes at k = 5.
    @Test func unseenArcColoursAreTriedBothWays() throws {
        var read = [Int](repeating: 0, count: 12), tried = [Int](repeating: 0, count: 12)
        for code in Self.randomCodes(count: 120, seed: 21) {
            let arcOf = Self.colorStreamIndex(code.bits)
            let certain = RingObservation(certain: code.bits)
            let thirdArcs = (1...56).filter { arc in
                (0..<128).contains { arcOf[$0] == arc && certain.third[$0] == 1 }
            }
            for unseen in [1, 3, 5, 10, 11] where thirdArcs.count >= unseen {
                var o = certain
                let erased = Set(thirdArcs.prefix(unseen))
                for position in 0..<128 where erased.contains(arcOf[position]) { o.third[position] = 0.5 }
                tried[unseen] += 1
                if let decoded = try? RingCodec.decode(o) {
                    #expect(decoded.payload == code.payload, "\(unseen) unseen arcs")
                    read[unseen] += 1
                }
            }
        }
        // One to five unknown bits leave 11 or more of the 16: every code reads with one, at
        // least 95 % with three or five (the rest have a close rival). Ten or eleven leave
        // under 8: none does.
        #expect(tried[1] > 50 && read[1] == tried[1], "1: \(read[1]) of \(tried[1])")
        for unseen in [3, 5] { #expect(tried[unseen] > 50 && read[unseen] * 100 >= tried[unseen] * 95, "\(unseen): \(read[unseen]) of \(tried[unseen])") }
        for unseen in [10, 11] { #expect(tried[unseen] > 0 && read[unseen] == 0, "\(unseen): \(read[unseen]) of \(tried[unseen])") }
    }

    /// Seven unseen third-coloured arcs of the arc word (9 of its 16 parity bits left) beside
    /// two arcs in two other symbols read on the right side but doubtfully (0.2 / 0.8): the
    /// colours as sampled, the unseen ones tried both ways, form the codeword, so the codes
    /// read. The decoder used to try erasing the doubtful arcs' symbols as well (symbols read
    /// with less than 0.75 confidence) and charge those tries (one bit each) to the word as
    /// sampled, leaving it 7 bits and refusing it: 0 of 120 read at 9ce79ac (swift test with
    /// this file, at 0.35 / 0.65), 120 of 120 from 9e3b369 until the close-rival rule
    /// (2026-11-30). That rule refuses a word another codeword is one misread colour away
    /// from, counting the unseen bits and those read under 0.5 confidence as loose: at
    /// 0.35 / 0.65 the two doubtful arcs are loose as well (86 of 120 read), at 0.2 / 0.8 only
    /// the seven unseen ones, and each of the other 49 bits closes a rival with a chance of
    /// about 2^(7−16), about 10 % of the codes (97 of 120 read: more rivals than that count,
    /// with the seven unseen arcs among the word's third-coloured ones). The test asks 75 %,
    /// which the old bug's 0 of 120 is far below.
    @Test func unseenArcsBesideDoubtfulOnesRead() throws {
        var read = 0, tried = 0
        for code in Self.randomCodes(count: 120, seed: 27) {
            let arcOf = Self.colorStreamIndex(code.bits)
            let certain = RingObservation(certain: code.bits)
            let thirdArcs = (1...56).filter { arc in
                (0..<128).contains { arcOf[$0] == arc && certain.third[$0] == 1 }
            }
            guard thirdArcs.count >= 7 else { continue }
            let erased = Set(thirdArcs.prefix(7))
            // One in each of the word's last two symbols (arcs 41–48 and 49–56).
            guard let fifth = (41...48).last(where: { !erased.contains($0) }),
                  let sixth = (49...56).last(where: { !erased.contains($0) }) else { continue }
            let doubtful: Set<Int> = [fifth, sixth]
            var o = certain
            for position in 0..<128 {
                if erased.contains(arcOf[position]) { o.third[position] = 0.5 }
                if doubtful.contains(arcOf[position]) { o.third[position] = certain.third[position] == 1 ? 0.8 : 0.2 }
            }
            tried += 1
            if let decoded = try? RingCodec.decode(o) {
                #expect(decoded.payload == code.payload)
                read += 1
            }
        }
        #expect(tried > 50 && read * 100 >= tried * 75, "\(read) of \(tried)")
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
