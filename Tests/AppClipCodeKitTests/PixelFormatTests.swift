import AppClipCodeKit
import Foundation
import Testing

/// The same photographed code handed over in every pixel layout a caller may have (camera
/// NV12/NV21, BGRA and RGBA bitmaps, gray), each with padded rows, reads the URL of the
/// ground truth at its true centre: alone, and tracked from the true plane (hinted colour
/// frames convert only the code's surroundings, a separate path). The conversions are the
/// test's own (BT.601), not the reader's.
@Suite struct PixelFormatTests {
    struct Truth {
        let url: String
        let center: (Double, Double)
        let homography: Homography
    }

    /// Frames whose codes must read (clean: 100 % target; the README's sample photo).
    static let frames = ["TestImages/clean/clean_00000.png", "TestImages/clean/clean_00001.png", "TestImages/sample_photo.jpg"]
    static let formats: [PixelFormat] = [.gray8, .rgb8, .bgr8, .rgba8, .bgra8, .nv12, .nv21]

    static func truth(of image: String) throws -> Truth? {
        let file = SharedMaterial.packageRoot.appendingPathComponent(image).deletingPathExtension().appendingPathExtension("json")
        guard let json = try SharedMaterial.json(file) as? [String: Any],
              let code = (json["codes"] as? [[String: Any]])?.first,
              let url = code["url"] as? String, let center = code["center"] as? [Double], center.count == 2,
              let h = (code["homography"] as? [Double]).flatMap({ Homography(rowMajor: $0) })
        else { return nil }
        return Truth(url: BlackboxImageTests.normalized(url), center: (center[0], center[1]), homography: h)
    }

    /// Red, green and blue of every pixel, row by row.
    static func rgb(of image: DecodedImage) -> [(UInt8, UInt8, UInt8)] {
        var out: [(UInt8, UInt8, UInt8)] = []
        out.reserveCapacity(image.width * image.height)
        let bpp: Int
        switch image.format {
        case .gray8: bpp = 1
        case .rgb8, .bgr8: bpp = 3
        default: bpp = 4
        }
        let px = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = y * image.bytesPerRow + x * bpp
                switch image.format {
                case .gray8: out.append((px[p], px[p], px[p]))
                case .bgr8, .bgra8: out.append((px[p + 2], px[p + 1], px[p]))
                default: out.append((px[p], px[p + 1], px[p + 2]))
                }
            }
        }
        return out
    }

    struct Layout {
        let pixels: [UInt8]
        let bytesPerRow: Int
        let chroma: (offset: Int, bytesPerRow: Int)?
    }

    /// `rgb` laid out as `format`, every row padded with junk bytes; the chroma plane of
    /// NV12/NV21 follows the luma plane in the same buffer, with its own padded stride.
    static func layout(_ rgb: [(UInt8, UInt8, UInt8)], width: Int, height: Int, as format: PixelFormat) -> Layout {
        func luma(_ c: (UInt8, UInt8, UInt8)) -> Double { 0.299 * Double(c.0) + 0.587 * Double(c.1) + 0.114 * Double(c.2) }
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        let padding = 13
        switch format {
        case .nv12, .nv21:
            let stride = width + padding
            let chromaRows = (height + 1) / 2, chromaStride = 2 * ((width + 1) / 2) + padding
            var px = [UInt8](repeating: 0xA5, count: stride * height + chromaStride * chromaRows)
            for y in 0..<height { for x in 0..<width { px[y * stride + x] = byte(luma(rgb[y * width + x])) } }
            let chroma = stride * height
            for cy in 0..<chromaRows {
                for cx in 0..<(width + 1) / 2 {
                    // Cb and Cr of the 2×2 block's mean colour (full-range BT.601).
                    var r = 0.0, g = 0.0, b = 0.0, n = 0.0
                    for dy in 0..<2 { for dx in 0..<2 {
                        let x = 2 * cx + dx, y = 2 * cy + dy
                        guard x < width, y < height else { continue }
                        let c = rgb[y * width + x]
                        r += Double(c.0); g += Double(c.1); b += Double(c.2); n += 1
                    } }
                    r /= n; g /= n; b /= n
                    let yy = 0.299 * r + 0.587 * g + 0.114 * b
                    let cb = byte(128 + 0.564 * (b - yy)), cr = byte(128 + 0.713 * (r - yy))
                    let at = chroma + cy * chromaStride + 2 * cx
                    px[at] = format == .nv12 ? cb : cr
                    px[at + 1] = format == .nv12 ? cr : cb
                }
            }
            return Layout(pixels: px, bytesPerRow: stride, chroma: (chroma, chromaStride))
        default:
            let bpp = format == .gray8 ? 1 : (format == .rgb8 || format == .bgr8) ? 3 : 4
            let stride = width * bpp + padding
            var px = [UInt8](repeating: 0xA5, count: stride * height)
            for y in 0..<height {
                for x in 0..<width {
                    let c = rgb[y * width + x], p = y * stride + x * bpp
                    switch format {
                    case .gray8: px[p] = byte(luma(c))
                    case .rgb8, .rgba8: px[p] = c.0; px[p + 1] = c.1; px[p + 2] = c.2
                    default: px[p] = c.2; px[p + 1] = c.1; px[p + 2] = c.0
                    }
                    if bpp == 4 { px[p + 3] = 255 }
                }
            }
            return Layout(pixels: px, bytesPerRow: stride, chroma: nil)
        }
    }

    /// A frame the caller owns as a PixelBuffer (separate Y and CbCr arrays for NV12, as a
    /// camera's two planes are) reads through the reader directly, as its view does.
    @Test func pixelBuffersReadTheTrueURL() throws {
        var reader = try AppClipCodeReader()
        let name = "TestImages/sample_photo.jpg"
        let truth = try #require(try Self.truth(of: name), "\(name): no ground truth")
        let image = try DecodedImage(contentsOfFile: SharedMaterial.packageRoot.appendingPathComponent(name).path)
        let rgb = Self.rgb(of: image)
        for format in [PixelFormat.nv12, .nv21, .gray8, .bgra8] {
            let laid = Self.layout(rgb, width: image.width, height: image.height, as: format)
            let split = laid.chroma?.offset ?? laid.pixels.count
            let frame = try PixelBuffer(width: image.width, height: image.height, format: format,
                                        bytesPerRow: laid.bytesPerRow, pixels: Array(laid.pixels[..<split]),
                                        chroma: Array(laid.pixels[split...]), chromaBytesPerRow: laid.chroma?.bytesPerRow ?? 0)
            let decoded = try reader.read(frame).codes.filter { $0.state == .decoded }
            #expect(decoded.count == 1, "\(name) as a \(format) PixelBuffer: \(decoded.count) codes decoded")
            #expect(decoded.first?.url.map(BlackboxImageTests.normalized) == truth.url, "\(name) as a \(format) PixelBuffer")
        }
    }

    @Test func everyLayoutReadsTheTrueURLAtTheTrueCentre() throws {
        var reader = try AppClipCodeReader()
        for name in Self.frames {
            let truth = try #require(try Self.truth(of: name), "\(name): no ground truth")
            let image = try DecodedImage(contentsOfFile: SharedMaterial.packageRoot.appendingPathComponent(name).path)
            let rgb = Self.rgb(of: image)
            for format in Self.formats {
                let laid = Self.layout(rgb, width: image.width, height: image.height, as: format)
                for hints in [[], [truth.homography]] {
                    let result = try laid.pixels.withUnsafeBytes { raw throws(AppClipCodeError) -> ReadResult in
                        let chroma = laid.chroma.flatMap { c in raw.baseAddress.map { $0 + c.offset } }
                        let view = ImageView(base: raw.baseAddress, width: image.width, height: image.height,
                                             bytesPerRow: laid.bytesPerRow, format: format, chroma: chroma,
                                             chromaBytesPerRow: laid.chroma?.bytesPerRow ?? 0)
                        return try reader.read(view, hints: hints)
                    }
                    let what = "\(name) as \(format)\(hints.isEmpty ? "" : ", tracked")"
                    let decoded = result.codes.filter { $0.state == .decoded }
                    #expect(decoded.count == 1, "\(what): \(decoded.count) codes decoded")
                    for code in decoded {
                        #expect(code.url.map(BlackboxImageTests.normalized) == truth.url, "\(what): read \(code.url ?? "nil")")
                        let off = hypot(code.center.x - truth.center.0, code.center.y - truth.center.1)
                        #expect(off < 2.0, "\(what): centre \(off) px from the truth")
                    }
                }
            }
        }
    }
}
