import DashPilotCore

/// Why a capture session started.
public enum SessionStartReason: Sendable, Hashable, CustomStringConvertible {
  /// The first fix with a position after capture started or a session ended.
  case fixesStarted(device: String?)

  public var description: String {
    switch self {
    case let .fixesStarted(device?): "fixes started flowing from \(device)"
    case .fixesStarted(nil): "fixes started flowing"
    }
  }

  /// A stable snake_case name for logs and JSON (the uplink's session messages carry it).
  public var code: String {
    switch self {
    case .fixesStarted: "fixes_started"
    }
  }
}

/// Why a capture session ended: each one is an interruption the measurement must see.
public enum SessionEndReason: Sendable, Hashable, CustomStringConvertible {
  case connectionLost(String)
  /// A VERSION report: a new gpsd (restarted, or a new connection to one).
  case newGPSD(release: String)
  case deviceDeactivated(path: String?)
  case deviceChanged(from: String, to: String)
  /// The shift ended or the daemon is stopping (the caller says which).
  case captureStopped(String)
  case saveFailed(String)
  /// The vehicle entered a private place (`PrivatePlaceGuard`): nothing is recorded there.
  case privatePlace

  public var description: String {
    switch self {
    case let .connectionLost(reason): "gpsd connection lost: \(reason)"
    case let .newGPSD(release): "a new gpsd connection (gpsd \(release.isEmpty ? "?" : release))"
    case let .deviceDeactivated(path?): "device \(path) deactivated"
    case .deviceDeactivated(nil): "device deactivated"
    case let .deviceChanged(from, to): "device changed from \(from) to \(to)"
    case let .captureStopped(reason): "capture stopped: \(reason)"
    case let .saveFailed(reason): "a sample could not be saved: \(reason)"
    case .privatePlace: "entered a private place, where nothing is recorded"
    }
  }

  /// The receiver capture was reading when the session ended, where the reason names it:
  /// kept beside `code` so a gap's cause can say which receiver went ("receiver
  /// /dev/ttyACM0 removed").
  public var device: String? {
    switch self {
    case let .deviceDeactivated(path): path
    case let .deviceChanged(from, _): from
    case .connectionLost, .newGPSD, .captureStopped, .saveFailed, .privatePlace: nil
    }
  }

  /// A stable snake_case name for logs and JSON.
  public var code: String {
    switch self {
    case .connectionLost: "connection_lost"
    case .newGPSD: "new_gpsd"
    case .deviceDeactivated: "device_deactivated"
    case .deviceChanged: "device_changed"
    case .captureStopped: "capture_stopped"
    case .saveFailed: "save_failed"
    case .privatePlace: "private_place"
    }
  }
}

/// What handling one input did, for the caller to log (session changes) or count.
public enum CaptureEvent: Sendable, Hashable {
  case sessionStarted(CaptureSessionID, SessionStartReason)
  case sessionEnded(CaptureSessionID, SessionEndReason)
  case accepted(RouteSample)
  case rejected(SampleRejection)
  case saveFailed(String)
  /// A fix dropped unjudged while capture holds on a failed save (the reason).
  case dropped(String)
  /// A fix inside a private place, withheld before it was judged (`PrivatePlaceGuard`).
  case withheldInPrivatePlace
  /// The session's first kept sample whose accuracy was assumed (the receiver reports no
  /// error estimate): said once a session, with the accuracy assumed in metres.
  case accuracyAssumed(CaptureSessionID, metres: Double)
}

/// What capture did so far: fixes received while capturing, accepted (and kept), rejected
/// by reason, saves that failed, and fixes dropped while the store failed.
public struct CaptureStatistics: Sendable, Hashable {
  public var received = 0
  public var accepted = 0
  /// Of the accepted: held samples (the vehicle stood still), samples whose accuracy was
  /// assumed, and samples dated by their arrival (the receiver sent no date).
  public var held = 0
  public var accuracyAssumed = 0
  public var datedByArrival = 0
  /// Of the rejected: fixes with a position and no date that could not be dated by their
  /// arrival (`ArrivalDating`: no arrival time known, or not allowed), so a report can say
  /// why a receiver that sends no date recorded nothing.
  public var undated = 0
  public var rejected: [SampleRejection: Int] = [:]
  public var saveFailures = 0
  /// Fixes dropped while capture held on a failed save (see `CaptureService.storeFailure`).
  public var droppedWhileStoreFailing = 0
  public var sessionsStarted = 0
  /// Fixes withheld inside a private place (`PrivatePlaceGuard`): never judged, never stored.
  public var withheldInPrivatePlace = 0

  public init() {}

  public var rejectedTotal: Int { rejected.values.reduce(0, +) }
}
