import AppClipCodeKit
import Testing

/// Frames handed to a session are checked when they are made: each way of describing
/// planes that the arrays cannot hold gets its own typed error, never a crash later.
@Suite struct PixelBufferValidationTests {
    func kind(of make: () throws(AppClipCodeError) -> PixelBuffer) -> AppClipCodeError.Kind? {
        do {
            _ = try make()
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func wellFormedPlanesAreAccepted() throws {
        // 5×3 RGB with 2 bytes of row padding; the last row needs no padding.
        _ = try PixelBuffer(width: 5, height: 3, format: .rgb8, bytesPerRow: 17, pixels: [UInt8](repeating: 0, count: 17 * 2 + 15))
        // 5×3 NV12: chroma rows hold 3 CbCr pairs (6 bytes), 2 rows.
        _ = try PixelBuffer(width: 5, height: 3, format: .nv12, bytesPerRow: 5, pixels: [UInt8](repeating: 0, count: 15),
                            chroma: [UInt8](repeating: 128, count: 12), chromaBytesPerRow: 6)
    }

    @Test func aRowStrideShorterThanARowIsAStrideError() {
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 5, height: 3, format: .bgra8, bytesPerRow: 19, pixels: [UInt8](repeating: 0, count: 100))
        } == .imageStride)
    }

    @Test func tooFewBytesIsABufferError() {
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 5, height: 3, format: .rgb8, bytesPerRow: 15, pixels: [UInt8](repeating: 0, count: 44))
        } == .bufferTooSmall)
    }

    @Test func aShortChromaStrideOrPlaneIsRefused() {
        let luma = [UInt8](repeating: 0, count: 15)
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 5, height: 3, format: .nv21, bytesPerRow: 5, pixels: luma,
                            chroma: [UInt8](repeating: 128, count: 12), chromaBytesPerRow: 5)
        } == .imageStride)
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 5, height: 3, format: .nv12, bytesPerRow: 5, pixels: luma,
                            chroma: [UInt8](repeating: 128, count: 11), chromaBytesPerRow: 6)
        } == .bufferTooSmall)
        // No chroma plane at all: its stride defaults to 0, shorter than a chroma row.
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 5, height: 3, format: .nv12, bytesPerRow: 5, pixels: luma)
        } == .imageStride)
    }

    @Test func emptyAndAbsurdSizesAreRefused() {
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 0, height: 3, format: .gray8, bytesPerRow: 1, pixels: [0, 0, 0])
        } == .invalidArgument)
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 1 << 40, height: 1 << 40, format: .gray8, bytesPerRow: 1 << 40, pixels: [0])
        } == .invalidArgument)
        #expect(kind { () throws(AppClipCodeError) in
            try PixelBuffer(width: 100_000, height: 100_000, format: .gray8, bytesPerRow: 100_000, pixels: [0])
        } == .bufferTooSmall)
    }
}
