import CAppClipCore
import Testing

/// Reed-Solomon against an independent check: syndromes computed here with
/// carry-less arithmetic from the field facts (GF(16): x^4+x+1, first root α^0;
/// GF(256): x^8+x^4+x^3+x^2+1, first root α^1).
@Suite struct ReedSolomonTests {
    struct Code {
        let id: acc_rs_code
        let n: Int
        let k: Int
        let bits: Int
        let primitive: UInt32
        let firstRoot: Int
        var parity: Int { n - k }
        var maxSymbol: UInt8 { UInt8((1 << bits) - 1) }
    }

    static let codes = [
        Code(id: ACC_RS_METADATA, n: 4, k: 2, bits: 4, primitive: 0x13, firstRoot: 0),
        Code(id: ACC_RS_GAPS_V0, n: 13, k: 9, bits: 8, primitive: 0x11D, firstRoot: 1),
        Code(id: ACC_RS_GAPS_V1, n: 13, k: 11, bits: 8, primitive: 0x11D, firstRoot: 1),
        Code(id: ACC_RS_ARCS, n: 7, k: 5, bits: 8, primitive: 0x11D, firstRoot: 1),
    ]

    static func multiply(_ a: UInt32, _ b: UInt32, _ code: Code) -> UInt32 {
        var result: UInt32 = 0, x = a, y = b
        while y != 0 {
            if y & 1 != 0 { result ^= x }
            y >>= 1
            x <<= 1
            if x & (1 << code.bits) != 0 { x ^= code.primitive }
        }
        return result
    }

    /// True when every syndrome of the word (first symbol = highest degree) is zero.
    static func isCodeword(_ word: [UInt8], _ code: Code) -> Bool {
        var alpha: UInt32 = 1
        for _ in 0..<code.firstRoot { alpha = multiply(alpha, 2, code) }
        for _ in 0..<code.parity {
            var acc: UInt32 = 0
            for symbol in word { acc = multiply(acc, alpha, code) ^ UInt32(symbol) }
            if acc != 0 { return false }
            alpha = multiply(alpha, 2, code)
        }
        return true
    }

    static func encode(_ data: [UInt8], _ code: Code) -> [UInt8] {
        var word = [UInt8](repeating: 0, count: code.n)
        let status = acc_rs_encode(code.id, data, &word, nil)
        #expect(status == ACC_OK)
        return word
    }

    @Test(arguments: codes.indices)
    func encoderMakesCodewords(_ index: Int) {
        let code = Self.codes[index]
        var random = SeededRandom(seed: UInt64(100 + index))
        for _ in 0..<500 {
            let data = (0..<code.k).map { _ in UInt8.random(in: 0...code.maxSymbol, using: &random) }
            let word = Self.encode(data, code)
            #expect(Array(word.prefix(code.k)) == data, "systematic: data first")
            #expect(Self.isCodeword(word, code))
        }
    }

    @Test(arguments: codes.indices)
    func errorsAndErasuresWithinCapacityAlwaysDecode(_ index: Int) {
        let code = Self.codes[index]
        var random = SeededRandom(seed: UInt64(200 + index))
        for _ in 0..<3000 {
            let data = (0..<code.k).map { _ in UInt8.random(in: 0...code.maxSymbol, using: &random) }
            let original = Self.encode(data, code)
            let erasureCount = Int.random(in: 0...code.parity, using: &random)
            let errorCount = Int.random(in: 0...((code.parity - erasureCount) / 2), using: &random)
            var positions = Array(0..<code.n)
            positions.shuffle(using: &random)
            let erased = Array(positions.prefix(erasureCount))
            let wrong = positions.dropFirst(erasureCount).prefix(errorCount)
            var word = original
            for p in erased { word[p] = UInt8.random(in: 0...code.maxSymbol, using: &random) }
            for p in wrong { word[p] ^= UInt8.random(in: 1...code.maxSymbol, using: &random) }
            var corrected: Int32 = 0
            let status = acc_rs_decode(code.id, &word, erased.map(Int32.init), Int32(erased.count), &corrected, nil)
            #expect(status == ACC_OK, "e=\(errorCount) f=\(erasureCount)")
            #expect(word == original)
        }
    }

    @Test(arguments: codes.indices)
    func beyondCapacityFailsOrGivesAValidCodeword(_ index: Int) {
        let code = Self.codes[index]
        var random = SeededRandom(seed: UInt64(300 + index))
        var failures = 0
        for _ in 0..<3000 {
            let data = (0..<code.k).map { _ in UInt8.random(in: 0...code.maxSymbol, using: &random) }
            var word = Self.encode(data, code)
            let errorCount = Int.random(in: (code.parity / 2 + 1)...code.n, using: &random)
            var positions = Array(0..<code.n)
            positions.shuffle(using: &random)
            for p in positions.prefix(errorCount) { word[p] ^= UInt8.random(in: 1...code.maxSymbol, using: &random) }
            let received = word
            let status = acc_rs_decode(code.id, &word, nil, 0, nil, nil)
            if status == ACC_OK {
                #expect(Self.isCodeword(word, code), "returned a word that does not check")
            } else {
                failures += 1
                #expect(status == ACC_E_UNCORRECTABLE)
                #expect(word == received, "a failed decode must leave the word untouched")
            }
        }
        #expect(failures > 0)
    }

    @Test func badArgumentsAreRefused() {
        var word = [UInt8](repeating: 0, count: 13)
        #expect(acc_rs_decode(ACC_RS_GAPS_V0, &word, [0, 1, 2, 3, 4], 5, nil, nil) == ACC_E_UNCORRECTABLE)
        #expect(acc_rs_decode(ACC_RS_GAPS_V0, &word, [20], 1, nil, nil) == ACC_E_INVALID_ARGUMENT)
        #expect(acc_rs_decode(ACC_RS_GAPS_V0, &word, [3, 3], 2, nil, nil) == ACC_E_INVALID_ARGUMENT)
        var meta: [UInt8] = [16, 0, 0, 0]
        #expect(acc_rs_decode(ACC_RS_METADATA, &meta, nil, 0, nil, nil) == ACC_E_INVALID_ARGUMENT)
    }
}
