/// What happened to anchors in one frame, in the order a delegate hears it.
public enum SessionEvent: Sendable {
    case added([AppClipCodeAnchor])
    case updated([AppClipCodeAnchor])
    case removed([AppClipCodeAnchor])
}

/// A decoding state transition of one anchor in a frame.
public struct DecodingStateChange: Sendable, Equatable {
    public let identifier: AnchorIdentifier
    public let from: URLDecodingState?
    public let to: URLDecodingState
}

/// The outcome of one frame.
public struct FrameUpdate: Sendable {
    public let timestamp: Double
    /// Every anchor after the frame (tracked or not), by identifier.
    public let anchors: [AppClipCodeAnchor]
    public let added: [AppClipCodeAnchor]
    public let updated: [AppClipCodeAnchor]
    public let removed: [AppClipCodeAnchor]
    /// New anchors (from nil) and state changes of existing ones.
    public let stateChanges: [DecodingStateChange]
    /// The reader's time for this frame.
    public let reader: FrameStatistics
    /// Whole frame in the session, milliseconds (reader, fusion, pose, size).
    public let sessionMilliseconds: Double
    /// How many codes were looked for near where they were predicted, before the whole frame.
    public let usedHints: Int
    /// The frame was older than one already read, and was not read.
    public let stale: Bool

    /// The events of this frame, in delegate order (added, updated, removed; empty kinds left out).
    public var events: [SessionEvent] {
        var out: [SessionEvent] = []
        if !added.isEmpty { out.append(.added(added)) }
        if !updated.isEmpty { out.append(.updated(updated)) }
        if !removed.isEmpty { out.append(.removed(removed)) }
        return out
    }
}

/// Hears about anchors like `ARSessionDelegate`. Calls arrive in frame order, one at a time, on
/// the delegate's own isolation (a `@MainActor` class works as is); the session never waits
/// for them before reading the next frame.
public protocol AppClipCodeSessionDelegate: AnyObject, Sendable {
    func session(_ session: AppClipCodeSession, didAdd anchors: [AppClipCodeAnchor]) async
    func session(_ session: AppClipCodeSession, didUpdate anchors: [AppClipCodeAnchor]) async
    func session(_ session: AppClipCodeSession, didRemove anchors: [AppClipCodeAnchor]) async
}

extension AppClipCodeSessionDelegate {
    public func session(_ session: AppClipCodeSession, didAdd anchors: [AppClipCodeAnchor]) async {}
    public func session(_ session: AppClipCodeSession, didUpdate anchors: [AppClipCodeAnchor]) async {}
    public func session(_ session: AppClipCodeSession, didRemove anchors: [AppClipCodeAnchor]) async {}
}
