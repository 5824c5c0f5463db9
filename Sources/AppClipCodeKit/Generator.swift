import CAppClipCore

/// Writes App Clip Codes: SVG in Apple's structure, or an antialiased raster.
public struct AppClipCodeGenerator: Sendable {
    public var palette: Palette
    public var logo: Logo

    public init(palette: Palette, logo: Logo = .camera) {
        self.palette = palette
        self.logo = logo
    }

    private var options: acc_generate_options { acc_generate_options(palette: palette.cValue, logo: logo.cValue) }

    /// The SVG text for `url`; throws for URLs Apple's generator refuses.
    public func svg(for url: String) throws(AppClipCodeError) -> String {
        var text: UnsafeMutablePointer<CChar>?
        var length = 0
        var options = self.options
        try check { acc_svg_generate(url, url.utf8.count, &options, &text, &length, $0) }
        guard let text else { throw AppClipCodeError(kind: .outOfMemory, message: "no SVG returned") }
        defer { acc_free(text) }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
    }

    /// A size×size RGBA raster (straight alpha, transparent outside the disc).
    public func rgba(for url: String, size: Int) throws(AppClipCodeError) -> [UInt8] {
        var pixels: UnsafeMutablePointer<UInt8>?
        var options = self.options
        try check { acc_raster_generate(url, url.utf8.count, &options, Int32(clamping: size), &pixels, $0) }
        guard let pixels else { throw AppClipCodeError(kind: .outOfMemory, message: "no raster returned") }
        defer { acc_free(pixels) }
        return Array(UnsafeBufferPointer(start: pixels, count: size * size * 4))
    }

    /// Writes a size×size PNG of the code for `url` to `path`.
    public func writePNG(for url: String, size: Int, to path: String) throws(AppClipCodeError) {
        let pixels = try rgba(for: url, size: size)
        try pixels.withUnsafeBufferPointer { buffer throws(AppClipCodeError) in
            var view = acc_image_view()
            view.data = buffer.baseAddress
            view.width = Int32(size)
            view.height = Int32(size)
            view.stride = Int32(size * 4)
            view.format = ACC_PIXEL_RGBA8
            try check { acc_png_write_file(path, &view, $0) }
        }
    }
}

/// What an SVG's arcs say, read from their geometry (never from `data-payload`).
public struct SVGCodeReading: Sendable, Equatable {
    public let observation: RingObservation
    public let palette: Palette
    public let logo: Logo

    public init(svg: String) throws(AppClipCodeError) {
        var code = acc_svg_code()
        try check { acc_svg_read(svg, svg.utf8.count, &code, $0) }
        observation = RingObservation(code.observation)
        palette = Palette(code.palette)
        logo = Logo(code.logo)
    }

    /// Decodes the arcs to a payload and, for URL codes, the URL.
    public func decode() throws(AppClipCodeError) -> DecodedPayload {
        try RingCodec.decode(observation)
    }
}
