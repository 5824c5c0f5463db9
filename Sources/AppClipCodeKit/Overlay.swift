import CAppClipCore

/// Draws what the reader saw (rims, ring sample points, rim points, URLs) over a
/// copy of a frame, for a person to look at.
public enum AppClipCodeOverlay {
    public static func writePNG(path: String, image: ImageView, detections: [CodeDetection]) throws(AppClipCodeError) {
        var view = image.cValue
        let raw = detections.map { $0.cValue }
        try check { error in acc_overlay_write_png(path, &view, raw, Int32(raw.count), error) }
    }
}

extension CodeDetection {
    /// Back to the C form, for drawing.
    var cValue: acc_detection {
        var d = acc_detection()
        d.state = state == .decoded ? ACC_STATE_DECODED : ACC_STATE_FAILED
        if let url {
            withUnsafeMutableBytes(of: &d.url) { raw in
                let bytes = Array(url.utf8.prefix(raw.count - 1))
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
        }
        withUnsafeMutableBytes(of: &d.homography) { raw in
            let h = raw.bindMemory(to: Double.self)
            for i in 0..<9 { h[i] = homography.m[i] }
        }
        withUnsafeMutableBytes(of: &d.corners) { raw in
            let c = raw.bindMemory(to: Double.self)
            for (i, p) in corners.prefix(4).enumerated() {
                c[2 * i] = p.x
                c[2 * i + 1] = p.y
            }
        }
        d.center = (center.x, center.y)
        d.observation = observation.cValue
        return d
    }
}
