import AppClipCodeKit
import Foundation
import Testing

/// Frames from any thread, delegates on their own isolation (run these under TSan:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter Session`).
@Suite struct SessionConcurrencyTests {
    static func frames(count: Int) throws -> [Frame] {
        let camera = SyntheticCamera(intrinsics: CameraIntrinsics(fx: 700, fy: 700, cx: 239.5, cy: 179.5), width: 480, height: 360)
        var renderer = SyntheticRenderer(width: 480, height: 360, seed: 21)
        let code = try renderer.addCode(url: "https://example.com/threads", template: 1)
        let path = OrbitPath(camera: camera, diameter: 0.03, apparentDiameterPx: 110, seed: 22)
        var random = SeededRandom(seed: 23)
        return (0..<count).map { i in
            let t = Double(i) / 30
            let pose = path.pose(at: t)
            return Frame(image: renderer.render([(code, camera.homography(pose, diameter: 0.03))], noise: 2, random: &random),
                         timestamp: t, intrinsics: camera.intrinsics, cameraTransform: pose.arkitTransform)
        }
    }

    @Test func framesFromManyThreadsAtOnce() async throws {
        let frames = try Self.frames(count: 48)
        let session = try AppClipCodeSession()
        let consumer = Task { var n = 0; for await _ in session.events { n += 1 }; return n }
        let updates = try await withThrowingTaskGroup(of: [FrameUpdate].self) { group in
            for lane in 0..<4 {
                group.addTask {
                    var out: [FrameUpdate] = []
                    for i in stride(from: lane, to: frames.count, by: 4) { out.append(try await session.process(frames[i])) }
                    return out
                }
            }
            var all: [FrameUpdate] = []
            for try await part in group { all += part }
            return all
        }
        await session.finish()
        let events = await consumer.value
        #expect(updates.count == frames.count)
        let read = updates.filter { !$0.stale }
        #expect(!read.isEmpty)
        // Whatever order the frames arrived in, the code kept one identifier.
        let ids = Set(read.flatMap { $0.anchors.map(\.identifier) })
        #expect(ids.count == 1)
        #expect(events == read.reduce(0) { $0 + $1.events.count })
        // Read frames went forward in time.
        let times = read.map(\.timestamp)
        #expect(times == times.sorted() || Set(times).count == times.count)
    }

    @Test func delegateHearsEveryEventInOrder() async throws {
        let frames = try Self.frames(count: 12)
        let session = try AppClipCodeSession()
        let recorder = EventRecorder()
        await session.setDelegate(recorder)
        var expected: [String] = []
        for frame in frames {
            let update = try await session.process(frame)
            expected += update.events.map(SessionLifecycleTests.summary)
        }
        // Delivery is asynchronous: wait (bounded) until everything arrived.
        for _ in 0..<200 {
            if await recorder.log.count >= expected.count { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(await recorder.log == expected)
        #expect(!expected.isEmpty)
    }

    @Test func mainActorDelegatesCompileAndHear() async throws {
        let frames = try Self.frames(count: 3)
        let session = try AppClipCodeSession()
        let delegate = MainActorDelegate()
        await session.setDelegate(delegate)
        for frame in frames { _ = try await session.process(frame) }
        for _ in 0..<200 {
            if await delegate.added > 0 { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(await delegate.added == 1)
    }
}

actor EventRecorder: AppClipCodeSessionDelegate {
    var log: [String] = []
    func session(_ session: AppClipCodeSession, didAdd anchors: [AppClipCodeAnchor]) async {
        log.append(SessionLifecycleTests.summary(.added(anchors)))
    }
    func session(_ session: AppClipCodeSession, didUpdate anchors: [AppClipCodeAnchor]) async {
        log.append(SessionLifecycleTests.summary(.updated(anchors)))
    }
    func session(_ session: AppClipCodeSession, didRemove anchors: [AppClipCodeAnchor]) async {
        log.append(SessionLifecycleTests.summary(.removed(anchors)))
    }
}

/// What a view controller would look like.
@MainActor final class MainActorDelegate: AppClipCodeSessionDelegate {
    var added = 0
    func session(_ session: AppClipCodeSession, didAdd anchors: [AppClipCodeAnchor]) async { added += anchors.count }
}
