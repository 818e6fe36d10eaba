import DashPilotCore
import FoundationEssentials

/// Keeps samples in memory: replay's store, and the tests'. `failSave` lets a caller make a
/// save fail, the one way to reach "a sample that could not be saved" without a disk.
public final class InMemorySampleSink: SampleSink {
  public struct SaveFailed: Error, Hashable, CustomStringConvertible {
    public var description: String { "the sample could not be kept" }
    public init() {}
  }

  public private(set) var samples: [RouteSample] = []
  /// A session as the sink was told of it.
  public struct Session: Hashable, Sendable {
    public var id: CaptureSessionID
    public var start: SessionStartReason
    public var startedAt: Date?
    /// Nil while it is open.
    public var end: SessionEndReason?
    public var endedAt: Date?
  }

  /// Sessions in the order they started.
  public private(set) var sessions: [Session] = []
  /// Asked before each save; returning true makes that save throw.
  public var failSave: (RouteSample) -> Bool = { _ in false }

  public init(samples: [RouteSample] = []) { self.samples = samples }

  public func save(_ sample: RouteSample) throws {
    if failSave(sample) { throw SaveFailed() }
    samples.append(sample)
  }

  public func lastRetainedSample() -> RouteSample? { samples.last }

  public func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    sessions.append(Session(id: session, start: reason, startedAt: at, end: nil, endedAt: nil))
  }

  public func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    guard let index = sessions.lastIndex(where: { $0.id == session }) else { return }
    sessions[index].end = reason
    sessions[index].endedAt = at
  }
}
