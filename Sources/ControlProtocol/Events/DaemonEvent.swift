import DashPilotCore
import FoundationEssentials

/// What the daemon tells `events` followers, one case per event type, each with its fields
/// (docs/events.md shows every one with an exact line). The journal gets the same sentence;
/// its `DASHPILOT_SESSION`, `_SHIFT` and `_REASON` fields are the event's `session`,
/// `shift` and `reason`.
///
/// `unrecognised` is only ever read, never sent: a type this build does not know (a newer
/// daemon's), kept with its fields as they came so that `dashpilotctl events` shows it.
public enum DaemonEvent: Sendable, Hashable {
  case daemonHangup
  case daemonStopping(Reason)

  case gpsdConnected
  case gpsdDisconnected(Reason)
  /// The first failed attempt while gpsd stays unreachable (one line, not one per retry).
  case gpsdUnreachable(Reason)
  case gpsdDevice(Device)
  case gpsdDeviceRemoved(DeviceRemoved)

  case captureSessionStarted(CaptureSession)
  case captureSessionEnded(CaptureSession)
  case captureResumed(ShiftResumed)
  /// The session's receiver reports no error estimate: its fixes are kept with the
  /// assumed accuracy (once a session).
  case captureAccuracyAssumed(AccuracyAssumed)

  case shiftStarted(ShiftStarted)
  case shiftEnded(ShiftEnded)
  case shiftImported(ShiftNumber)

  case storeError(StoreFailure)
  case storeRecovered
  case storeChecked(StoreChecked)
  case storeReplaced(StoreReplaced)

  case uplinkOutboxOverflow

  case placeEntered(PlaceCrossing)
  case placeLeft(PlaceCrossing)

  case stopStarted(StopFields)
  case stopEnded(StopFields)

  case jobArrived(JobTold)
  case jobVisited(JobTold)
  case jobNotReached(JobTold)

  case guidanceRouteLoaded(RouteFollowed)
  case guidanceRoutePlanned(RouteFollowed)
  case guidanceCleared
  case guidanceNavigateRequested(RouteAsked)
  case guidanceNavigateFailed(NavigateFailed)
  case guidanceJoined(FixMoment)
  case guidanceOffRoute(OffRoute)
  case guidanceBackOnRoute(FixMoment)
  case guidanceProgress(Progress)
  case guidanceArrived(FixMoment)
  case guidanceAnnouncement(Spoken)
  case guidanceRerouteRequested(RerouteAsked)
  case guidanceRerouteCancelled(RerouteRef)
  case guidanceRerouteDiscarded(RerouteRef)
  case guidanceRerouted(Rerouted)
  case guidanceRerouteFailed(RerouteFailed)
  case guidanceSpeechFailed(SpeechFailed)

  case unrecognised(type: String, fields: [String: JSONValue])

  /// Every type the daemon sends, as the wire spells it.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case daemonHangup = "daemon.hangup"
    case daemonStopping = "daemon.stopping"
    case gpsdConnected = "gpsd.connected"
    case gpsdDisconnected = "gpsd.disconnected"
    case gpsdUnreachable = "gpsd.unreachable"
    case gpsdDevice = "gpsd.device"
    case gpsdDeviceRemoved = "gpsd.device_removed"
    case captureSessionStarted = "capture.session_started"
    case captureSessionEnded = "capture.session_ended"
    case captureResumed = "capture.resumed"
    case captureAccuracyAssumed = "capture.accuracy_assumed"
    case shiftStarted = "shift.started"
    case shiftEnded = "shift.ended"
    case shiftImported = "shift.imported"
    case storeError = "store.error"
    case storeRecovered = "store.recovered"
    case storeChecked = "store.checked"
    case storeReplaced = "store.replaced"
    case uplinkOutboxOverflow = "uplink.outbox_overflow"
    case placeEntered = "place.entered"
    case placeLeft = "place.left"
    case stopStarted = "stop.started"
    case stopEnded = "stop.ended"
    case jobArrived = "job.arrived"
    case jobVisited = "job.visited"
    case jobNotReached = "job.not_reached"
    case guidanceRouteLoaded = "guidance.route_loaded"
    case guidanceRoutePlanned = "guidance.route_planned"
    case guidanceCleared = "guidance.cleared"
    case guidanceNavigateRequested = "guidance.navigate_requested"
    case guidanceNavigateFailed = "guidance.navigate_failed"
    case guidanceJoined = "guidance.joined"
    case guidanceOffRoute = "guidance.off_route"
    case guidanceBackOnRoute = "guidance.back_on_route"
    case guidanceProgress = "guidance.progress"
    case guidanceArrived = "guidance.arrived"
    case guidanceAnnouncement = "guidance.announcement"
    case guidanceRerouteRequested = "guidance.reroute_requested"
    case guidanceRerouteCancelled = "guidance.reroute_cancelled"
    case guidanceRerouteDiscarded = "guidance.reroute_discarded"
    case guidanceRerouted = "guidance.rerouted"
    case guidanceRerouteFailed = "guidance.reroute_failed"
    case guidanceSpeechFailed = "guidance.speech_failed"
  }

  /// The `reason` of the two types whose reason never varies.
  static let hangupReason = "sighup"
  static let overflowReason = "uplink"

  /// Nil only for `unrecognised`.
  public var kind: Kind? {
    switch self {
    case .daemonHangup: .daemonHangup
    case .daemonStopping: .daemonStopping
    case .gpsdConnected: .gpsdConnected
    case .gpsdDisconnected: .gpsdDisconnected
    case .gpsdUnreachable: .gpsdUnreachable
    case .gpsdDevice: .gpsdDevice
    case .gpsdDeviceRemoved: .gpsdDeviceRemoved
    case .captureSessionStarted: .captureSessionStarted
    case .captureSessionEnded: .captureSessionEnded
    case .captureResumed: .captureResumed
    case .captureAccuracyAssumed: .captureAccuracyAssumed
    case .shiftStarted: .shiftStarted
    case .shiftEnded: .shiftEnded
    case .shiftImported: .shiftImported
    case .storeError: .storeError
    case .storeRecovered: .storeRecovered
    case .storeChecked: .storeChecked
    case .storeReplaced: .storeReplaced
    case .uplinkOutboxOverflow: .uplinkOutboxOverflow
    case .placeEntered: .placeEntered
    case .placeLeft: .placeLeft
    case .stopStarted: .stopStarted
    case .stopEnded: .stopEnded
    case .jobArrived: .jobArrived
    case .jobVisited: .jobVisited
    case .jobNotReached: .jobNotReached
    case .guidanceRouteLoaded: .guidanceRouteLoaded
    case .guidanceRoutePlanned: .guidanceRoutePlanned
    case .guidanceCleared: .guidanceCleared
    case .guidanceNavigateRequested: .guidanceNavigateRequested
    case .guidanceNavigateFailed: .guidanceNavigateFailed
    case .guidanceJoined: .guidanceJoined
    case .guidanceOffRoute: .guidanceOffRoute
    case .guidanceBackOnRoute: .guidanceBackOnRoute
    case .guidanceProgress: .guidanceProgress
    case .guidanceArrived: .guidanceArrived
    case .guidanceAnnouncement: .guidanceAnnouncement
    case .guidanceRerouteRequested: .guidanceRerouteRequested
    case .guidanceRerouteCancelled: .guidanceRerouteCancelled
    case .guidanceRerouteDiscarded: .guidanceRerouteDiscarded
    case .guidanceRerouted: .guidanceRerouted
    case .guidanceRerouteFailed: .guidanceRerouteFailed
    case .guidanceSpeechFailed: .guidanceSpeechFailed
    case .unrecognised: nil
    }
  }

  /// The dotted type, such as `capture.session_started`.
  public var type: String {
    if case .unrecognised(let type, _) = self { return type }
    return kind?.rawValue ?? ""
  }

  /// The fields object, as it is written but for `reason` (`encodeFields`).
  private var fields: any Encodable {
    switch self {
    case .daemonHangup, .uplinkOutboxOverflow, .gpsdConnected, .storeRecovered, .guidanceCleared: NoFields()
    case .daemonStopping(let fields), .gpsdDisconnected(let fields), .gpsdUnreachable(let fields): fields
    case .gpsdDevice(let fields): fields
    case .gpsdDeviceRemoved(let fields): fields
    case .captureSessionStarted(let fields), .captureSessionEnded(let fields): fields
    case .captureResumed(let fields): fields
    case .captureAccuracyAssumed(let fields): fields
    case .shiftStarted(let fields): fields
    case .shiftImported(let fields): fields
    case .shiftEnded(let fields): fields
    case .storeError(let fields): fields
    case .storeChecked(let fields): fields
    case .storeReplaced(let fields): fields
    case .placeEntered(let fields), .placeLeft(let fields): fields
    case .stopStarted(let fields), .stopEnded(let fields): fields
    case .jobArrived(let fields), .jobVisited(let fields), .jobNotReached(let fields): fields
    case .guidanceRouteLoaded(let fields), .guidanceRoutePlanned(let fields): fields
    case .guidanceNavigateRequested(let fields): fields
    case .guidanceNavigateFailed(let fields): fields
    case .guidanceJoined(let fields), .guidanceBackOnRoute(let fields), .guidanceArrived(let fields): fields
    case .guidanceOffRoute(let fields): fields
    case .guidanceProgress(let fields): fields
    case .guidanceAnnouncement(let fields): fields
    case .guidanceRerouteRequested(let fields): fields
    case .guidanceRerouteCancelled(let fields), .guidanceRerouteDiscarded(let fields): fields
    case .guidanceRerouted(let fields): fields
    case .guidanceRerouteFailed(let fields): fields
    case .guidanceSpeechFailed(let fields): fields
    case .unrecognised(_, let fields): fields
    }
  }

  /// The fields, with the event's `reason` among them wherever it has one: the journal's
  /// DASHPILOT_REASON, which some fields hold and others derive (a shift's `started_by`, a
  /// failure's class, a constant of the type).
  func encodeFields(to encoder: any Encoder) throws {
    try fields.encode(to: encoder)
    guard let reason else { return }
    var container = encoder.container(keyedBy: ReasonKey.self)
    try container.encode(reason, forKey: .reason)
  }

  private enum ReasonKey: String, CodingKey { case reason }

  /// The payload of an event of `type` from its fields.
  init(type: String, fields decoder: any Decoder) throws {
    guard let kind = Kind(rawValue: type) else {
      self = .unrecognised(type: type, fields: try [String: JSONValue](from: decoder))
      return
    }
    switch kind {
    case .daemonHangup: self = .daemonHangup
    case .daemonStopping: self = .daemonStopping(try Reason(from: decoder))
    case .gpsdConnected: self = .gpsdConnected
    case .gpsdDisconnected: self = .gpsdDisconnected(try Reason(from: decoder))
    case .gpsdUnreachable: self = .gpsdUnreachable(try Reason(from: decoder))
    case .gpsdDevice: self = .gpsdDevice(try Device(from: decoder))
    case .gpsdDeviceRemoved: self = .gpsdDeviceRemoved(try DeviceRemoved(from: decoder))
    case .captureSessionStarted: self = .captureSessionStarted(try CaptureSession(from: decoder))
    case .captureSessionEnded: self = .captureSessionEnded(try CaptureSession(from: decoder))
    case .captureResumed: self = .captureResumed(try ShiftResumed(from: decoder))
    case .captureAccuracyAssumed: self = .captureAccuracyAssumed(try AccuracyAssumed(from: decoder))
    case .shiftStarted: self = .shiftStarted(try ShiftStarted(from: decoder))
    case .shiftEnded: self = .shiftEnded(try ShiftEnded(from: decoder))
    case .shiftImported: self = .shiftImported(try ShiftNumber(from: decoder))
    case .storeError: self = .storeError(try StoreFailure(from: decoder))
    case .storeRecovered: self = .storeRecovered
    case .storeChecked: self = .storeChecked(try StoreChecked(from: decoder))
    case .storeReplaced: self = .storeReplaced(try StoreReplaced(from: decoder))
    case .uplinkOutboxOverflow: self = .uplinkOutboxOverflow
    case .placeEntered: self = .placeEntered(try PlaceCrossing(from: decoder))
    case .placeLeft: self = .placeLeft(try PlaceCrossing(from: decoder))
    case .stopStarted: self = .stopStarted(try StopFields(from: decoder))
    case .stopEnded: self = .stopEnded(try StopFields(from: decoder))
    case .jobArrived: self = .jobArrived(try JobTold(from: decoder))
    case .jobVisited: self = .jobVisited(try JobTold(from: decoder))
    case .jobNotReached: self = .jobNotReached(try JobTold(from: decoder))
    case .guidanceRouteLoaded: self = .guidanceRouteLoaded(try RouteFollowed(from: decoder))
    case .guidanceRoutePlanned: self = .guidanceRoutePlanned(try RouteFollowed(from: decoder))
    case .guidanceCleared: self = .guidanceCleared
    case .guidanceNavigateRequested: self = .guidanceNavigateRequested(try RouteAsked(from: decoder))
    case .guidanceNavigateFailed: self = .guidanceNavigateFailed(try NavigateFailed(from: decoder))
    case .guidanceJoined: self = .guidanceJoined(try FixMoment(from: decoder))
    case .guidanceOffRoute: self = .guidanceOffRoute(try OffRoute(from: decoder))
    case .guidanceBackOnRoute: self = .guidanceBackOnRoute(try FixMoment(from: decoder))
    case .guidanceProgress: self = .guidanceProgress(try Progress(from: decoder))
    case .guidanceArrived: self = .guidanceArrived(try FixMoment(from: decoder))
    case .guidanceAnnouncement: self = .guidanceAnnouncement(try Spoken(from: decoder))
    case .guidanceRerouteRequested: self = .guidanceRerouteRequested(try RerouteAsked(from: decoder))
    case .guidanceRerouteCancelled: self = .guidanceRerouteCancelled(try RerouteRef(from: decoder))
    case .guidanceRerouteDiscarded: self = .guidanceRerouteDiscarded(try RerouteRef(from: decoder))
    case .guidanceRerouted: self = .guidanceRerouted(try Rerouted(from: decoder))
    case .guidanceRerouteFailed: self = .guidanceRerouteFailed(try RerouteFailed(from: decoder))
    case .guidanceSpeechFailed: self = .guidanceSpeechFailed(try SpeechFailed(from: decoder))
    }
  }
}
