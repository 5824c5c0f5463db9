import CAppClipCore

/// An RGB color, 0xRRGGBB.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    public let rgb: UInt32

    public init(rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    /// Parses "RRGGBB" or "#RRGGBB" (case-insensitive).
    public init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(rgb: value)
    }

    /// "#rrggbb", as the JSON output writes colors.
    public var description: String {
        let hex = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// "RRGGBB", as Apple's generator prints colors.
    public var appleHex: String { String(description.dropFirst()).uppercased() }
}

/// Foreground, background and the derived third color of a code.
public struct Palette: Sendable, Hashable {
    public var foreground: RGBColor
    public var background: RGBColor
    public var third: RGBColor

    public init(foreground: RGBColor, background: RGBColor, third: RGBColor) {
        self.foreground = foreground
        self.background = background
        self.third = third
    }

    /// A custom pair; the third color is Apple's template color when the pair is a
    /// template, else the midpoint approximation (Apple's rule is unpublished).
    public init(foreground: RGBColor, background: RGBColor) {
        self.init(foreground: foreground, background: background,
                  third: RGBColor(rgb: acc_third_color(foreground.rgb, background.rgb)))
    }

    /// One of Apple's 18 templates (0…17).
    public static func template(_ index: Int) throws(AppClipCodeError) -> Palette {
        var p = acc_palette()
        try check { acc_template_palette(Int32(clamping: index), &p, $0) }
        return Palette(p)
    }

    public static let templateCount = Int(ACC_TEMPLATE_COUNT)

    init(_ p: acc_palette) {
        self.init(foreground: RGBColor(rgb: p.foreground), background: RGBColor(rgb: p.background), third: RGBColor(rgb: p.third))
    }

    var cValue: acc_palette { acc_palette(foreground: foreground.rgb, background: background.rgb, third: third.rgb) }
}

/// The glyph in the middle of a code.
public enum Logo: String, Sendable, CaseIterable {
    case none, camera, nfc

    var cValue: acc_logo {
        switch self {
        case .none: return ACC_LOGO_NONE
        case .camera: return ACC_LOGO_CAMERA
        case .nfc: return ACC_LOGO_NFC
        }
    }

    init(_ logo: acc_logo) {
        switch logo {
        case ACC_LOGO_CAMERA: self = .camera
        case ACC_LOGO_NFC: self = .nfc
        default: self = .none
        }
    }
}
