import AppClipCodeKit

enum Overlay {
    static func write(image: DecodedImage, detections: [CodeDetection], to path: String) throws {
        try image.withView { view in
            try AppClipCodeOverlay.writePNG(path: path, image: view, detections: detections)
        }
    }
}
