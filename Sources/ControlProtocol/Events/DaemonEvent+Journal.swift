import FoundationEssentials

// The journal's fields: DASHPILOT_SESSION, _SHIFT and _REASON, from the event's own.
extension DaemonEvent {
  /// The capture session the event is about.
  public var session: String? {
    switch self {
    case .captureSessionStarted(let fields), .captureSessionEnded(let fields): fields.session
    case .captureAccuracyAssumed(let fields): fields.session
    default: nil
    }
  }

  /// The shift the event is about.
  public var shift: Int64? {
    switch self {
    case .captureSessionStarted(let fields), .captureSessionEnded(let fields): fields.shift
    case .captureResumed(let fields): fields.shift
    case .captureAccuracyAssumed(let fields): fields.shift
    case .shiftStarted(let fields): fields.shift
    case .shiftImported(let fields): fields.shift
    case .shiftEnded(let fields): fields.shift
    case .storeError(let fields): fields.shift
    case .stopStarted(let fields), .stopEnded(let fields): fields.shift
    case .jobArrived(let fields), .jobVisited(let fields), .jobNotReached(let fields): fields.shift
    default: nil
    }
  }

  /// Why it happened, when the event says.
  public var reason: String? {
    switch self {
    case .daemonHangup: Self.hangupReason
    case .uplinkOutboxOverflow: Self.overflowReason
    case .daemonStopping(let fields), .gpsdDisconnected(let fields), .gpsdUnreachable(let fields): fields.reason
    case .gpsdDeviceRemoved: DeviceRemoved.reason
    case .captureSessionStarted(let fields), .captureSessionEnded(let fields): fields.reason
    case .captureResumed: ShiftResumed.reason
    case .captureAccuracyAssumed: AccuracyAssumed.reason
    case .shiftStarted(let fields): fields.startedBy.rawValue
    case .shiftEnded(let fields): fields.endedBy.rawValue
    case .storeError(let fields): fields.reason
    case .storeChecked(let fields): fields.result
    case .storeReplaced(let fields): fields.purpose
    case .guidanceNavigateFailed(let fields): fields.failure
    case .guidanceRerouteFailed(let fields): fields.failure
    case .guidanceSpeechFailed: SpeechFailed.reason
    default: nil
    }
  }
}
