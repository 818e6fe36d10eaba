import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// What status counts for the current capture session (between sessions: since the last
/// one ended). Capture's tallies run for the whole shift, so the session's are the
/// difference from where they stood when it began. Pure.
struct SessionTally {
  /// The `capture.rejected` key of fixes dropped while the store failed.
  static let droppedWhileStoreFailing = "store_failing"

  /// When (wall clock) the current session started.
  private(set) var startedAt: Date?
  private var countedFrom = CaptureStatistics()

  /// `statistics` is capture's tally before the fix that started the session: its counts
  /// start with that fix.
  mutating func sessionStarted(at time: Date, statistics: CaptureStatistics) {
    startedAt = time
    countedFrom = statistics
  }

  mutating func sessionEnded(statistics: CaptureStatistics) {
    startedAt = nil
    countedFrom = statistics
  }

  /// Capture started afresh (a shift opened): nothing counted yet.
  mutating func reset() {
    self = SessionTally()
  }

  func section(session: CaptureSessionID?, statistics: CaptureStatistics) -> CaptureSection {
    var rejected: [String: Int] = [:]
    for (reason, count) in statistics.rejected {
      let since = count - (countedFrom.rejected[reason] ?? 0)
      if since > 0 { rejected[reason.rawValue] = since }
    }
    // Fixes dropped while capture holds on a failed save count as refused for that reason.
    let dropped = statistics.droppedWhileStoreFailing - countedFrom.droppedWhileStoreFailing
    if dropped > 0 { rejected[Self.droppedWhileStoreFailing] = dropped }
    return CaptureSection(
      session: session?.rawValue, sessionStartedAt: startedAt, accepted: statistics.accepted - countedFrom.accepted,
      rejected: rejected, held: statistics.held - countedFrom.held,
      accuracyAssumed: statistics.accuracyAssumed - countedFrom.accuracyAssumed)
  }

  /// Status while no shift is open: nothing is captured.
  static let idle = CaptureSection(
    session: nil, sessionStartedAt: nil, accepted: 0, rejected: [:], held: 0, accuracyAssumed: 0)
}
