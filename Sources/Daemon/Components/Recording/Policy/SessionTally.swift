import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// What status counts for the current capture session (between sessions: since the last
/// one ended), counted from capture's events as they come: a session's counts start with
/// the fix that started it, since capture says a session started before it judges that
/// fix. Pure.
struct SessionTally {
  /// The `capture.rejected` key of fixes dropped while the store failed.
  static let droppedWhileStoreFailing = "store_failing"
  /// The `capture.rejected` key of fixes withheld inside a private place.
  static let withheldInPrivatePlace = "private_place"

  /// When (wall clock) the current session started.
  private(set) var startedAt: Date?
  private var accepted = 0
  private var held = 0
  private var accuracyAssumed = 0
  private var datedByArrival = 0
  private var rejected: [SampleRejection: Int] = [:]
  private var dropped = 0
  private var withheld = 0

  /// Counts one of capture's events, told at `time` (wall clock).
  mutating func count(_ event: CaptureEvent, at time: Date) {
    switch event {
    case .sessionStarted:
      self = SessionTally()
      startedAt = time
    case .sessionEnded:
      self = SessionTally()
    case .accepted(let sample):
      accepted += 1
      if sample.isHeld { held += 1 }
      if sample.isAccuracyAssumed { accuracyAssumed += 1 }
      if sample.isDatedByArrival { datedByArrival += 1 }
    case .rejected(let reason):
      rejected[reason, default: 0] += 1
    case .dropped:
      dropped += 1
    case .withheldInPrivatePlace:
      withheld += 1
    case .saveFailed, .accuracyAssumed:
      break
    }
  }

  /// Capture started afresh (a shift opened): nothing counted yet.
  mutating func reset() {
    self = SessionTally()
  }

  func section(session: CaptureSessionID?) -> CaptureSection {
    var rejected = Dictionary(uniqueKeysWithValues: self.rejected.map { ($0.key.rawValue, $0.value) })
    // Fixes dropped while capture holds on a failed save count as refused for that reason.
    if dropped > 0 { rejected[Self.droppedWhileStoreFailing] = dropped }
    // Between sessions, while the vehicle is in a private place: the fixes withheld there.
    if withheld > 0 { rejected[Self.withheldInPrivatePlace] = withheld }
    return CaptureSection(
      session: session?.rawValue, sessionStartedAt: startedAt, accepted: accepted, rejected: rejected, held: held,
      accuracyAssumed: accuracyAssumed, datedByArrival: datedByArrival)
  }

  /// Status while no shift is open: nothing is captured.
  static let idle = CaptureSection(
    session: nil, sessionStartedAt: nil, accepted: 0, rejected: [:], held: 0, accuracyAssumed: 0,
    datedByArrival: 0)
}
