import DashPilotCore

/// Keeps samples in memory: replay's store, and the tests'. `failSave` lets a caller make a
/// save fail, the one way to reach "a sample that could not be saved" without a disk.
public final class InMemorySampleSink: SampleSink {
  public struct SaveFailed: Error, Hashable, CustomStringConvertible {
    public var description: String { "the sample could not be kept" }
    public init() {}
  }

  public private(set) var samples: [RouteSample] = []
  /// Sessions in the order they started, with the reason each ended (nil while open).
  public private(set) var sessions: [(id: CaptureSessionID, start: SessionStartReason, end: SessionEndReason?)] = []
  /// Asked before each save; returning true makes that save throw.
  public var failSave: (RouteSample) -> Bool = { _ in false }

  public init(samples: [RouteSample] = []) { self.samples = samples }

  public func save(_ sample: RouteSample) throws {
    if failSave(sample) { throw SaveFailed() }
    samples.append(sample)
  }

  public func lastRetainedSample() -> RouteSample? { samples.last }

  public func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason) {
    sessions.append((session, reason, nil))
  }

  public func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason) {
    if let index = sessions.lastIndex(where: { $0.id == session }) { sessions[index].end = reason }
  }
}
