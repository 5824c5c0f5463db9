import CAppClipCore

/// How pixels are laid out in memory.
public enum PixelFormat: Sendable, Equatable {
    case gray8, rgb8, bgr8, rgba8, bgra8
    /// Bi-planar 4:2:0 (camera format): Y plane, then interleaved CbCr (NV12) or CrCb (NV21).
    case nv12, nv21

    var cValue: acc_pixel_format {
        switch self {
        case .gray8: return ACC_PIXEL_GRAY8
        case .rgb8: return ACC_PIXEL_RGB8
        case .bgr8: return ACC_PIXEL_BGR8
        case .rgba8: return ACC_PIXEL_RGBA8
        case .bgra8: return ACC_PIXEL_BGRA8
        case .nv12: return ACC_PIXEL_NV12
        case .nv21: return ACC_PIXEL_NV21
        }
    }

    /// Bytes per pixel of plane 0.
    var bytesPerPixel: Int {
        switch self {
        case .gray8, .nv12, .nv21: return 1
        case .rgb8, .bgr8: return 3
        case .rgba8, .bgra8: return 4
        }
    }

    init(_ f: acc_pixel_format) {
        switch f {
        case ACC_PIXEL_RGB8: self = .rgb8
        case ACC_PIXEL_BGR8: self = .bgr8
        case ACC_PIXEL_RGBA8: self = .rgba8
        case ACC_PIXEL_BGRA8: self = .bgra8
        case ACC_PIXEL_NV12: self = .nv12
        case ACC_PIXEL_NV21: self = .nv21
        default: self = .gray8
        }
    }
}

/// A view over pixels the caller owns (a camera buffer, a bitmap): nothing is copied.
/// Valid only while the memory it points to is.
public struct ImageView {
    /// nil only for an empty image, which validation rejects.
    public let base: UnsafeRawPointer?
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let format: PixelFormat
    /// Second plane for NV12/NV21.
    public let chroma: UnsafeRawPointer?
    public let chromaBytesPerRow: Int

    public init(base: UnsafeRawPointer?, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat,
                chroma: UnsafeRawPointer? = nil, chromaBytesPerRow: Int = 0) {
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.chroma = chroma
        self.chromaBytesPerRow = chromaBytesPerRow
    }

    var cValue: acc_image_view {
        var v = acc_image_view()
        v.data = base?.assumingMemoryBound(to: UInt8.self)
        v.width = Int32(clamping: width)
        v.height = Int32(clamping: height)
        v.stride = Int32(clamping: bytesPerRow)
        v.format = format.cValue
        v.chroma = chroma?.assumingMemoryBound(to: UInt8.self)
        v.chroma_stride = Int32(clamping: chromaBytesPerRow)
        return v
    }

    /// Checks sizes and strides; the reader does this too.
    public func validate() throws(AppClipCodeError) {
        var v = cValue
        try check { acc_image_view_validate(&v, $0) }
    }
}

/// An image decoded from a JPEG (EXIF orientation applied) or PNG file, owning its pixels.
public struct DecodedImage: Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let format: PixelFormat
    public let pixels: [UInt8]

    /// Loads a file. Images over `maxPixels` are reduced while decoding (JPEG) or
    /// refused; 0 means the default limit (100 megapixels).
    public init(contentsOfFile path: String, maxPixels: Int = 0) throws(AppClipCodeError) {
        var image = acc_owned_image()
        try check { acc_image_load_file(path, Int64(maxPixels), &image, $0) }
        self.init(taking: &image)
    }

    /// Decodes JPEG or PNG bytes.
    public init(encoded bytes: [UInt8], maxPixels: Int = 0) throws(AppClipCodeError) {
        var image = acc_owned_image()
        try check { acc_image_load_memory(bytes, bytes.count, Int64(maxPixels), &image, $0) }
        self.init(taking: &image)
    }

    /// Wraps pixels already in memory.
    public init(width: Int, height: Int, bytesPerRow: Int, format: PixelFormat, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.pixels = pixels
    }

    private init(taking image: inout acc_owned_image) {
        defer { acc_image_free(&image) }
        width = Int(image.width)
        height = Int(image.height)
        bytesPerRow = Int(image.stride)
        format = PixelFormat(image.format)
        pixels = image.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(image.stride) * Int(image.height))) } ?? []
    }

    /// Lends a view over the pixels for the duration of `body`.
    public func withView<R>(_ body: (ImageView) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes { raw in
            try body(ImageView(base: raw.baseAddress, width: width, height: height, bytesPerRow: bytesPerRow, format: format))
        }
    }
}
