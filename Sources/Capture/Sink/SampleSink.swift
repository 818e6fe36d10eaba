import DashPilotCore
import FoundationEssentials

/// Where `CaptureService` keeps accepted samples: the seam the SQLite store plugs into.
/// Calls come from the one thread that owns the service.
public protocol SampleSink: AnyObject {
  /// Keeps `sample` for the open shift; throws when it could not be kept, which ends the
  /// capture session (the measurement must see that interruption).
  func save(_ sample: RouteSample) throws
  /// The last sample kept for the open shift, so the filter judges the next fix against
  /// what was really kept (at shift start and after a failed save); nil for none.
  func lastRetainedSample() throws -> RouteSample?
  /// Told when a capture session starts and ends, after the service has decided it. `at`
  /// is on the receiver's clock: the time of the fix that started the session, and of the
  /// last fix with a position seen in it (nil if none had a time). The wall clock of a box
  /// without an RTC may be years off; the receiver's is what the samples carry.
  func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?)
  func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?)
}

extension SampleSink {
  public func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {}
  public func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {}
}
