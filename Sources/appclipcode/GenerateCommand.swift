import AppClipCodeKit
import ArgumentParser

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write an App Clip Code as SVG (Apple's structure) or PNG.",
        discussion: "Takes the flags of Apple's `AppClipCodeGenerator generate`, so its scripts run unchanged.")

    @Argument(help: "The URL to encode (or use --url).")
    var positionalURL: String?

    @Option(name: .long, help: "The URL to encode (https only).")
    var url: String?

    @Option(name: .long, help: "Color template 0…17 (see `templates`).")
    var index: Int?

    @Option(name: .long, help: "Custom foreground color, RRGGBB.")
    var foreground: String?

    @Option(name: .long, help: "Custom background color, RRGGBB.")
    var background: String?

    @Option(name: .long, help: "cam (scan-only) or nfc (NFC-integrated).")
    var type: CodeType = .cam

    @Option(name: .long, help: "badge (the App Clip logo) or none.")
    var logo: LogoOption = .badge

    @Option(name: [.short, .long], help: "Output file: .svg, or .png to rasterize (default: SVG to standard output).")
    var output: String?

    @Option(name: .long, help: "PNG size in pixels.")
    var size: Int = 1024

    enum CodeType: String, ExpressibleByArgument { case cam, nfc }
    enum LogoOption: String, ExpressibleByArgument { case badge, none }

    func validate() throws {
        if url == nil && positionalURL == nil { throw ValidationError("Give the URL with --url URL or as an argument.") }
        if url != nil && positionalURL != nil { throw ValidationError("Give the URL once, not both with --url and as an argument.") }
        if index != nil && (foreground != nil || background != nil) {
            throw ValidationError("Use either --index or --foreground and --background.")
        }
        if (foreground == nil) != (background == nil) { throw ValidationError("--foreground and --background go together.") }
        if let index, !(0..<Palette.templateCount).contains(index) {
            throw ValidationError("--index must be 0…\(Palette.templateCount - 1).")
        }
        if !(16...16384).contains(size) { throw ValidationError("--size must be 16…16384.") }
    }

    func run() throws {
        let target = url ?? positionalURL ?? ""
        let palette: Palette
        if let foreground, let background {
            guard let fg = RGBColor(hex: foreground) else { throw ValidationError("--foreground must be RRGGBB, got \(foreground).") }
            guard let bg = RGBColor(hex: background) else { throw ValidationError("--background must be RRGGBB, got \(background).") }
            palette = Palette(foreground: fg, background: bg)
        } else {
            palette = try Palette.template(index ?? 0)
        }
        let glyph: Logo = logo == .none ? .none : (type == .nfc ? .nfc : .camera)
        let generator = AppClipCodeGenerator(palette: palette, logo: glyph)
        do {
            if let output, output.lowercased().hasSuffix(".png") {
                try generator.writePNG(for: target, size: size, to: output)
            } else {
                let svg = try generator.svg(for: target)
                if let output {
                    try writeText(svg, to: output)
                } else {
                    print(svg, terminator: "")
                }
            }
        } catch let error as AppClipCodeError {
            emitError("error: \(error.message)")
            throw ExitCode(error.isInvalidURL ? 2 : 1)
        }
    }
}
