import AppClipCodeKit
import Foundation
import Testing

/// Codes under a specular highlight: Apple's SVGs drawn 280 px across on a grey ground, turned
/// and squashed to 0.85 of their height (a tilt of about 32°), with a white elliptical Gaussian
/// alpha-blended over them, all drawn by rsvg-convert. The highlight's peak opacity is 0.7 (black
/// becomes 178, Apple's grey 136 becomes 219); its σ is 9 % of the code's diameter along its long
/// axis and 0.6 of that across (it falls to 1/e² of its peak 18 % of the diameter from its
/// centre), and its centre lies on the code's plane at 0.75 of the code's radius, over the
/// third and fourth rings, at a different angle for each code.
///
/// Measured on 99e9131 (debug build): 20 of 30 read with the highlight, 30 of 30 of the same
/// drawings without it, 0 wrong. Later sessions' readers read 30 of 30 with it (07628e6 and
/// the eighteenth session's, 2026-11-25), so the floor below is 27. The reader falls off steeply with the
/// highlight's strength: at peak opacity 0.5 all 30 read, at 0.85 13, at 1.0 (a white core) 7.
/// The reader before the glare handling (4b464c5, same drawings through its CLI) read 8 of 30
/// at 0.7 (30, 29, 4 and 1 at 0, 0.5, 0.85 and 1.0), so this floor fails without that work.
@Suite struct GlareTests {
    static let diameter = 280.0, squash = 0.85, width = 400.0, height = 360.0
    static let peakOpacity = 0.7, sigma = 0.09, aspect = 0.6, offset = 0.75

    /// Where the point at `offset` of the radius, `angle` round the code, lands in the image of
    /// the code turned by `degrees` and squashed.
    static func highlightCentre(turn degrees: Double, glareAt angle: Double, offset: Double = offset) -> (x: Double, y: Double) {
        let half = diameter / 2
        let x = offset * half * cos(angle * .pi / 180), y = offset * half * sin(angle * .pi / 180) * squash
        let turn = degrees * .pi / 180
        return (width / 2 + cos(turn) * x - sin(turn) * y, height / 2 + sin(turn) * x + cos(turn) * y)
    }

    /// The wrapper drawing: grey ground, the code turned and squashed at its centre, and (when
    /// opacity > 0) the highlight over it, in the image's own coordinates.
    static func wrapped(_ svg: String, turn degrees: Double, glareAt angle: Double, glareTilt: Double,
                        opacity: Double) -> String {
        let inner = Rsvg.nested(svg, size: diameter)
        let half = diameter / 2, cx = width / 2, cy = height / 2
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        var highlight = ""
        if opacity > 0 {
            let (gx, gy) = highlightCentre(turn: degrees, glareAt: angle)
            // A Gaussian out to 3σ: the gradient's offset t stands for 3t σ.
            let stops = (0...10).map { step in
                let t = Double(step) / 10
                return "<stop offset=\"\(number(t))\" stop-color=\"#ffffff\" stop-opacity=\"\(number(opacity * exp(-4.5 * t * t)))\"/>"
            }.joined()
            let rx = 3 * sigma * diameter
            highlight = """
            <defs><radialGradient id="g">\(stops)</radialGradient></defs>
            <ellipse rx="\(number(rx))" ry="\(number(rx * aspect))" fill="url(#g)" transform="translate(\(number(gx)) \(number(gy))) rotate(\(number(glareTilt)))"/>
            """
        }
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">
        <rect width="\(width)" height="\(height)" fill="#8c8c8c"/>
        <g transform="translate(\(cx) \(cy)) rotate(\(degrees)) scale(1 \(squash)) translate(-\(half) -\(half))">
        \(inner)
        </g>
        \(highlight)
        </svg>
        """
    }

    @Test func manyReadUnderAHighlightAndNoneIsWrong() throws {
        guard let rsvg = Rsvg.locate() else { return }
        // Every third Apple file from the second (apple_001, apple_004, …): not the 30 the
        // blurred test draws.
        let all = try AppleCorpusTests.entries()
        let entries = stride(from: 1, to: all.count, by: 3).prefix(30).map { all[$0] }
        guard !entries.isEmpty else { return }
        let drawings = entries.enumerated().map { index, entry in
            (name: entry.file.lastPathComponent, svg: Self.wrapped(entry.svg, turn: Double(index * 23 + 5), glareAt: Double(index * 47 + 13),
                                                                   glareTilt: Double(index * 31 % 180), opacity: Self.peakOpacity),
             url: entry.url)
        }
        let (read, wrong, unread) = try Rsvg.readDrawings(drawings, with: rsvg)
        print("codes under glare read: \(read)/\(entries.count), wrong \(wrong); unread: \(unread.joined(separator: " "))")
        #expect(wrong == 0)
        #expect(read >= 27, "read \(read) of \(entries.count)")
    }

    /// The same highlight over our generator's white-background templates (1, 3, …, 17, each
    /// foreground colour). They read far worse than Apple's black-background files: on white, a
    /// highlight fades the strokes towards the background instead of lifting the background with
    /// them, and the bands between the rings, which tell the reader how much light was added,
    /// stay white. Measured 2026-11-26 (e762df5, release detect_main on the same drawings): 9 of 30
    /// at peak opacity 0.7, 7 at 0.85, 4 at 1.0, 30 of 30 without the highlight; a gain over the
    /// code's angle with terms up to 4θ instead of 2θ read 15, 11 and 9 but lost 4 std hard codes
    /// for the 4 it gained, so it was not kept. Since the twenty-seventh session (2026-11-27) a
    /// reading that fails is read again allowing for light over a part of the code (a bump fitted
    /// to the arcs' shortfall from their neighbours' highest ink, see added_light.hpp): 11 of 30
    /// (swift test; 9 at 0561b1d with this file), so the floor of 10 fails without it. Still a
    /// weak spot, not a target.
    @Test func whiteBackgroundCodesUnderAHighlightAreAWeakSpot() throws {
        guard let rsvg = Rsvg.locate() else { return }
        let urls = WhiteTemplateCodes.urls
        let drawings = try WhiteTemplateCodes.drawings { svg, index in
            Self.wrapped(svg, turn: Double(index * 23 + 5), glareAt: Double(index * 47 + 13), glareTilt: Double(index * 31 % 180),
                         opacity: Self.peakOpacity)
        }
        let (read, wrong, unread) = try Rsvg.readDrawings(drawings, with: rsvg)
        print("white-background codes under glare read: \(read)/\(urls.count), wrong \(wrong); unread: \(unread.joined(separator: " "))")
        #expect(wrong == 0)
        #expect(read >= 10, "read \(read) of \(urls.count)")
    }

    /// White strokes on a colour (our templates 0, 2, …, 16) under light *added* to them, as a
    /// highlight adds it, rather than blended over them: a point light's specular spot
    /// (rsvg-convert's feSpecularLighting on the flat page, exponent 20, 60 px above the page)
    /// summed with the drawing by feComposite in linear light, where it clips at white. Over
    /// the code the spot lies where the other tests' highlight does; at its peak (1.0 of
    /// white) it whitens the background and the third colour there. The white strokes cannot
    /// get any lighter, so the bands' added ink, taken off every sample alike, turned
    /// strokes into the third colour. Measured 2026-12-02: 5 of 30 read (swift test and
    /// detect_main) before clipped samples were mapped back as the light lit the code's colours
    /// (lit_ink.hpp), 25 after (both; detect_main at half the light 25 and 30, at 1.5 times 3 and
    /// 11), 0 wrong. Dark strokes on white under the same light read 17 of 30 either way.
    @Test func whiteStrokesUnderAddedLightRead() throws {
        guard let rsvg = Rsvg.locate() else { return }
        let urls = WhiteTemplateCodes.urls
        let drawings = try WhiteTemplateCodes.drawings(whiteForeground: true) { svg, index in
            Self.lit(svg, turn: Double(index * 23 + 5), glareAt: Double(index * 47 + 13), strength: 1.0)
        }
        let (read, wrong, unread) = try Rsvg.readDrawings(drawings, with: rsvg)
        print("white strokes under added light read: \(read)/\(urls.count), wrong \(wrong); unread: \(unread.joined(separator: " "))")
        #expect(wrong == 0)
        #expect(read >= 20, "read \(read) of \(urls.count)")
    }

    /// White strokes under the same added light centred on the code (over its logo; 1.5 of
    /// white at its peak). It lifts each band between the rings all the way round, the inner
    /// ones most, so that no band departs from its own median, which is how the reader saw
    /// light over a part of the code; the bands' medians against one another show it
    /// (centred_light.hpp). Measured 2026-12-02 (detect_main on the same drawings): 16 of 30
    /// read before, 28 after; at 2.0 of white 0 and 23; 0 wrong.
    @Test func whiteStrokesUnderCentredLightRead() throws {
        guard let rsvg = Rsvg.locate() else { return }
        let urls = WhiteTemplateCodes.urls
        let drawings = try WhiteTemplateCodes.drawings(whiteForeground: true) { svg, index in
            Self.lit(svg, turn: Double(index * 23 + 5), glareAt: 0, strength: 1.5, offset: 0)
        }
        let (read, wrong, unread) = try Rsvg.readDrawings(drawings, with: rsvg)
        print("white strokes under centred light read: \(read)/\(urls.count), wrong \(wrong); unread: \(unread.joined(separator: " "))")
        #expect(wrong == 0)
        #expect(read >= 24, "read \(read) of \(urls.count)")
    }

    /// The drawing of `wrapped` without its blended highlight, with a specular spot added in
    /// linear light instead (see whiteStrokesUnderAddedLightRead), centred at the same point
    /// (or at `offset` of the radius from the code's centre).
    static func lit(_ svg: String, turn degrees: Double, glareAt angle: Double, strength: Double,
                    offset: Double = offset) -> String {
        let inner = Rsvg.nested(svg, size: diameter)
        let half = diameter / 2, cx = width / 2, cy = height / 2
        let (gx, gy) = highlightCentre(turn: degrees, glareAt: angle, offset: offset)
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">
        <defs><filter id="lit" filterUnits="userSpaceOnUse" x="0" y="0" width="\(width)" height="\(height)" color-interpolation-filters="linearRGB">
        <feSpecularLighting in="SourceAlpha" surfaceScale="0" specularConstant="\(number(strength))" specularExponent="20" lighting-color="#ffffff" result="spot">
        <fePointLight x="\(number(gx))" y="\(number(gy))" z="60"/></feSpecularLighting>
        <feComposite in="SourceGraphic" in2="spot" operator="arithmetic" k1="0" k2="1" k3="1" k4="0"/>
        </filter></defs>
        <g filter="url(#lit)">
        <rect width="\(width)" height="\(height)" fill="#8c8c8c"/>
        <g transform="translate(\(cx) \(cy)) rotate(\(degrees)) scale(1 \(squash)) translate(-\(half) -\(half))">
        \(inner)
        </g>
        </g>
        </svg>
        """
    }
}
