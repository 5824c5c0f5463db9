/// Pixels a frame owns: one plane (gray, RGB/BGR, RGBA/BGRA) or two (NV12/NV21), with any
/// row stride. A Sendable value, so a frame can be handed to the session from any thread.
public struct PixelBuffer: Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let bytesPerRow: Int
    /// Plane 0 (the Y plane for NV12/NV21).
    public let pixels: [UInt8]
    /// Interleaved chroma plane for NV12/NV21; empty otherwise.
    public let chroma: [UInt8]
    public let chromaBytesPerRow: Int

    /// Checks that the arrays hold the described planes. Sizes, strides and formats are
    /// checked by the core's own view validation; what only Swift knows (how many bytes the
    /// arrays hold) is checked here.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, pixels: [UInt8],
                chroma: [UInt8] = [], chromaBytesPerRow: Int = 0) throws(AppClipCodeError) {
        // The core takes 32-bit sizes; beyond them the products below would overflow.
        guard [width, height, bytesPerRow, chromaBytesPerRow].allSatisfy({ $0 <= Int(Int32.max) }) else {
            throw AppClipCodeError(kind: .invalidArgument, message: "frame sizes and strides must fit in 32 bits")
        }
        var failure: AppClipCodeError?
        pixels.withUnsafeBytes { plane in
            chroma.withUnsafeBytes { second in
                do throws(AppClipCodeError) {
                    try ImageView(base: plane.baseAddress, width: width, height: height, bytesPerRow: bytesPerRow,
                                  format: format, chroma: second.baseAddress, chromaBytesPerRow: chromaBytesPerRow).validate()
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        guard pixels.count >= bytesPerRow * (height - 1) + width * format.bytesPerPixel else {
            throw AppClipCodeError(kind: .bufferTooSmall, message: "\(pixels.count) bytes cannot hold \(width)×\(height) pixels",
                                   value: pixels.count)
        }
        if format == .nv12 || format == .nv21 {
            let chromaWidth = 2 * ((width + 1) / 2), chromaHeight = (height + 1) / 2
            guard chroma.count >= chromaBytesPerRow * (chromaHeight - 1) + chromaWidth else {
                throw AppClipCodeError(kind: .bufferTooSmall, message: "the chroma plane is too small", value: chroma.count)
            }
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        self.chroma = chroma
        self.chromaBytesPerRow = chromaBytesPerRow
    }

    /// The pixels of a decoded file (shares its storage; nothing is copied).
    public init(_ image: DecodedImage) {
        width = image.width
        height = image.height
        format = image.format
        bytesPerRow = image.bytesPerRow
        pixels = image.pixels
        chroma = []
        chromaBytesPerRow = 0
    }

    /// Lends a view over the planes for the duration of `body`.
    func withView<R>(_ body: (ImageView) throws(AppClipCodeError) -> R) throws(AppClipCodeError) -> R {
        var outcome: Result<R, AppClipCodeError> = .failure(AppClipCodeError(kind: .invalidArgument, message: "no pixels"))
        pixels.withUnsafeBytes { plane in
            chroma.withUnsafeBytes { second in
                let view = ImageView(base: plane.baseAddress, width: width, height: height, bytesPerRow: bytesPerRow,
                                     format: format, chroma: second.baseAddress, chromaBytesPerRow: chromaBytesPerRow)
                do throws(AppClipCodeError) {
                    outcome = .success(try body(view))
                } catch {
                    outcome = .failure(error)
                }
            }
        }
        return try outcome.get()
    }
}

/// A depth map aligned with the camera image (it may be smaller, like ARKit's 256×192 scene depth):
/// z-depth in meters along the camera's forward axis, row-major; 0, negative or non-finite values
/// mean "no depth here".
public struct DepthMap: Sendable {
    public let width: Int
    public let height: Int
    public let meters: [Float]
    /// Optional per-pixel confidence 0…1 (ARKit's confidence levels mapped to 0, 0.5, 1); empty = all trusted.
    public let confidence: [Float]

    public init(width: Int, height: Int, meters: [Float], confidence: [Float] = []) throws(AppClipCodeError) {
        guard width > 0, height > 0, meters.count == width * height else {
            throw AppClipCodeError(kind: .invalidArgument, message: "a depth map needs width × height values")
        }
        guard confidence.isEmpty || confidence.count == meters.count else {
            throw AppClipCodeError(kind: .invalidArgument, message: "depth confidence needs one value per depth pixel")
        }
        self.width = width
        self.height = height
        self.meters = meters
        self.confidence = confidence
    }

    /// Bilinear depth at image pixel (x, y) of an image `imageWidth` × `imageHeight`; nil without
    /// valid depth at the four neighbours.
    func depth(atImageX x: Double, y: Double, imageWidth: Int, imageHeight: Int) -> Double? {
        let sx = Double(width) / Double(imageWidth), sy = Double(height) / Double(imageHeight)
        let dx = (x + 0.5) * sx - 0.5, dy = (y + 0.5) * sy - 0.5
        guard dx > -0.5, dy > -0.5, dx < Double(width) - 0.5, dy < Double(height) - 0.5 else { return nil }
        let x0 = max(0, min(width - 1, Int(dx.rounded(.down)))), y0 = max(0, min(height - 1, Int(dy.rounded(.down))))
        let x1 = min(width - 1, x0 + 1), y1 = min(height - 1, y0 + 1)
        let fx = max(0, min(1, dx - Double(x0))), fy = max(0, min(1, dy - Double(y0)))
        var total = 0.0, weight = 0.0
        for (xx, yy, w) in [(x0, y0, (1 - fx) * (1 - fy)), (x1, y0, fx * (1 - fy)), (x0, y1, (1 - fx) * fy), (x1, y1, fx * fy)] {
            let i = yy * width + xx
            let v = Double(meters[i])
            let c = confidence.isEmpty ? 1.0 : Double(confidence[i])
            guard v > 0, v.isFinite, c > 0 else { continue }
            total += v * w * c
            weight += w * c
        }
        return weight > 1e-6 ? total / weight : nil
    }
}

/// One camera frame for `AppClipCodeSession`.
public struct Frame: Sendable {
    public var image: PixelBuffer
    /// Seconds, increasing (ARFrame.timestamp works as is).
    public var timestamp: Double
    /// The camera's intrinsics for this image; without them there is no pose.
    public var intrinsics: CameraIntrinsics?
    /// World ← camera, as ARKit supplies it (`ARCamera.transform`: camera axes x right, y up,
    /// z backward). With it anchors are placed in the world and their size is triangulated.
    public var cameraTransform: Matrix4x4?
    /// Scene depth aligned with the image (e.g. ARKit's `sceneDepth`).
    public var depth: DepthMap?

    public init(image: PixelBuffer, timestamp: Double, intrinsics: CameraIntrinsics? = nil,
                cameraTransform: Matrix4x4? = nil, depth: DepthMap? = nil) {
        self.image = image
        self.timestamp = timestamp
        self.intrinsics = intrinsics
        self.cameraTransform = cameraTransform
        self.depth = depth
    }

    public init(image: DecodedImage, timestamp: Double, intrinsics: CameraIntrinsics? = nil,
                cameraTransform: Matrix4x4? = nil, depth: DepthMap? = nil) {
        self.init(image: PixelBuffer(image), timestamp: timestamp, intrinsics: intrinsics,
                  cameraTransform: cameraTransform, depth: depth)
    }
}
