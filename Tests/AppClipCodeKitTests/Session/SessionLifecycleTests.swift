import AppClipCodeKit
import Foundation
import Testing

/// Decoding states over time, removal, and the events that report them.
@Suite struct SessionLifecycleTests {
    static let camera = SyntheticCamera(intrinsics: CameraIntrinsics(fx: 900, fy: 900, cx: 319.5, cy: 239.5), width: 640, height: 480)

    /// A code whose data rings are damaged beyond correction: located frame after frame, never read.
    @Test func unreadableCodeFailsAfterTheConfiguredTime() async throws {
        var renderer = SyntheticRenderer(width: 640, height: 480, seed: 3)
        let code = try renderer.addCode(url: "https://example.com/damaged", template: 0, damage: 20...110)
        let path = OrbitPath(camera: Self.camera, diameter: 0.04, apparentDiameterPx: 160, seed: 5)
        var config = SessionConfiguration()
        config.failAfter = 0.5
        let session = try AppClipCodeSession(configuration: config)
        var random = SeededRandom(seed: 1)
        var states: [(Double, URLDecodingState)] = []
        var firstSeen: Double?
        for i in 0..<40 {
            let t = Double(i) / 30
            let image = renderer.render([(code, Self.camera.homography(path.pose(at: t), diameter: 0.04))], noise: 2, random: &random)
            let update = try await session.process(Frame(image: image, timestamp: t))
            if let anchor = update.anchors.first {
                firstSeen = firstSeen ?? anchor.firstSeen
                states.append((t, anchor.urlDecodingState))
                #expect(anchor.url == nil)
            }
        }
        let start = try #require(firstSeen, "the damaged code was never located")
        for (t, state) in states {
            #expect(state == (t - start >= 0.5 ? .failed : .decoding), "at t = \(t)")
        }
        #expect(states.last?.1 == .failed)
    }

    /// A readable code: added (decoded at once), updated while seen, removed after `removeAfter`
    /// seconds unseen; the events stream says the same, in order.
    @Test func codesAreAddedUpdatedAndRemoved() async throws {
        var renderer = SyntheticRenderer(width: 640, height: 480, seed: 4)
        let url = "https://example.com/lifecycle"
        let code = try renderer.addCode(url: url, template: 0)
        let path = OrbitPath(camera: Self.camera, diameter: 0.04, apparentDiameterPx: 180, seed: 6)
        var config = SessionConfiguration()
        config.removeAfter = 0.3
        let session = try AppClipCodeSession(configuration: config)
        let collector = Task { () -> [SessionEvent] in
            var out: [SessionEvent] = []
            for await event in session.events { out.append(event) }
            return out
        }
        var random = SeededRandom(seed: 2)
        var expected: [SessionEvent] = []
        var removedAt: Double?
        var identifier: AnchorIdentifier?
        for i in 0..<40 {
            let t = Double(i) / 30
            let visible = i < 10
            let placements = visible ? [(code, Self.camera.homography(path.pose(at: t), diameter: 0.04))] : []
            let update = try await session.process(Frame(image: renderer.render(placements, noise: 2, random: &random), timestamp: t))
            expected += update.events
            if i == 0 {
                #expect(update.added.count == 1)
                #expect(update.added.first?.urlDecodingState == .decoded)
                #expect(update.added.first?.url == url)
                identifier = update.added.first?.identifier
            } else if visible {
                #expect(update.updated.map(\.identifier) == [identifier].compactMap { $0 })
                #expect(update.updated.first?.isTracked == true)
            } else if i == 10 {
                #expect(update.updated.first?.isTracked == false)   // one update when it is lost
            }
            if let removed = update.removed.first {
                #expect(removed.identifier == identifier)
                removedAt = removedAt ?? t
            }
        }
        await session.finish()
        let received = await collector.value
        let lastSeen = 9.0 / 30
        let removal = try #require(removedAt)
        #expect(removal - lastSeen > 0.3 && removal - lastSeen <= 0.3 + 1.0 / 30 + 1e-9)
        #expect(received.count == expected.count)
        for (a, b) in zip(received, expected) { #expect(Self.summary(a) == Self.summary(b)) }
    }

    static func summary(_ e: SessionEvent) -> String {
        switch e {
        case .added(let a): return "added " + a.map { "\($0.identifier)" }.joined(separator: ",")
        case .updated(let a): return "updated " + a.map { "\($0.identifier)" }.joined(separator: ",")
        case .removed(let a): return "removed " + a.map { "\($0.identifier)" }.joined(separator: ",")
        }
    }
}
