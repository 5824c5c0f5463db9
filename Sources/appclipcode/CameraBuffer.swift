import AppClipCodeKit
import ArgumentParser

/// `--gray` / `--nv12`, shared by the commands that read frames: hand the reader each frame as a
/// camera would deliver it instead of the file's decoded pixels.
struct CameraFormatOptions: ParsableArguments, Sendable {
    @Flag(name: .long, help: "Convert frames to gray before reading (as a camera's Y plane would be).")
    var gray = false

    @Flag(name: .long, help: "Convert frames to NV12 before reading (full-range BT.601 4:2:0, as ARKit's camera delivers them).")
    var nv12 = false

    func validate() throws {
        if gray && nv12 { throw ValidationError("Give --gray or --nv12, not both.") }
    }

    /// The pixels to read: the decoded file's own (shared, not copied), or a camera's planes made from them.
    func frame(from image: DecodedImage) throws -> PixelBuffer {
        gray || nv12 ? try cameraBuffer(image, withChroma: nv12) : PixelBuffer(image)
    }
}

/// The frame as a camera delivers it: the Y plane of full-range BT.601 YCbCr and, for NV12,
/// the interleaved CbCr plane at half resolution (each sample the mean of its 2 × 2 pixels).
/// Callers convert before their clock starts, as a camera would have.
private func cameraBuffer(_ image: DecodedImage, withChroma: Bool) throws -> PixelBuffer {
    if image.format == .gray8 && !withChroma { return PixelBuffer(image) }
    // Decoded files are gray, RGB or RGBA (either order).
    let channels = image.format == .gray8 ? 1 : image.format == .rgba8 || image.format == .bgra8 ? 4 : 3
    let redFirst = image.format == .rgb8 || image.format == .rgba8
    let w = image.width, h = image.height
    func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        let p = y * image.bytesPerRow + x * channels
        if channels == 1 { let v = Double(image.pixels[p]); return (v, v, v) }
        return (Double(image.pixels[p + (redFirst ? 0 : 2)]), Double(image.pixels[p + 1]),
                Double(image.pixels[p + (redFirst ? 2 : 0)]))
    }
    func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
    var luma = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h {
        for x in 0..<w {
            let (r, g, b) = rgb(x, y)
            luma[y * w + x] = byte(0.299 * r + 0.587 * g + 0.114 * b)
        }
    }
    guard withChroma else {
        return try PixelBuffer(width: w, height: h, format: .gray8, bytesPerRow: w, pixels: luma)
    }
    let cw = (w + 1) / 2, ch = (h + 1) / 2
    var chroma = [UInt8](repeating: 128, count: 2 * cw * ch)
    for cy in 0..<ch {
        for cx in 0..<cw {
            var cb = 0.0, cr = 0.0, n = 0.0
            for y in 2 * cy..<min(h, 2 * cy + 2) {
                for x in 2 * cx..<min(w, 2 * cx + 2) {
                    let (r, g, b) = rgb(x, y)
                    cb += -0.168736 * r - 0.331264 * g + 0.5 * b
                    cr += 0.5 * r - 0.418688 * g - 0.081312 * b
                    n += 1
                }
            }
            chroma[2 * (cy * cw + cx)] = byte(128 + cb / n)
            chroma[2 * (cy * cw + cx) + 1] = byte(128 + cr / n)
        }
    }
    return try PixelBuffer(width: w, height: h, format: .nv12, bytesPerRow: w, pixels: luma, chroma: chroma,
                           chromaBytesPerRow: 2 * cw)
}
