import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// What the outbox carries to the fleet: every committed sample batch, every completed
/// shift with its figure, and every capture-session start and end, each queued in the
/// transaction that commits it, so the fleet sees exactly what the box stored; each stop
/// as it ends; the events a dispatcher follows (guidance, shifts, places); and the reply to each fleet command, queued in
/// the transaction that records it answered.
public enum UplinkMessage: Sendable, Hashable {
  case samples(CommittedSamples)
  case shift(ShiftReport)
  case session(SessionEvent)
  case stop(StopReport)
  case event(FleetEvent)
  case reply(CommandReply)

  public var topic: UplinkTopic {
    switch self {
    case .samples: .samples
    case .shift: .shift
    case .session: .session
    case .stop: .stop
    case .event: .events
    case .reply: .reply
    }
  }

  public var shiftID: Int64? {
    switch self {
    case .samples(let batch): batch.shiftID
    case .shift(let report): report.shiftID
    case .session(let event): event.shiftID
    case .stop(let report): report.shiftID
    case .event(let event): event.shiftID
    case .reply: nil
    }
  }

  /// Positions carried, for the outbox's accounting and the drop log line.
  public var sampleCount: Int {
    if case .samples(let batch) = self { return batch.samples.count }
    return 0
  }
}

/// A committed batch of a shift's retained samples: one `samples` message
/// (docs/uplink-messages.md), queued in the store transaction that wrote them. Not the
/// store's `SampleBatch`, which gathers samples until they are written.
public struct CommittedSamples: Sendable, Hashable {
  public var shiftID: Int64
  /// The capture session of the batch; a sample recorded in another one carries its own.
  public var captureSession: CaptureSessionID?
  public var samples: [RouteSample]

  public init(shiftID: Int64, captureSession: CaptureSessionID?, samples: [RouteSample]) {
    self.shiftID = shiftID
    self.captureSession = captureSession
    self.samples = samples
  }

  /// A batch whose session is that of its first sample.
  public init(shiftID: Int64, samples: [RouteSample]) {
    self.init(shiftID: shiftID, captureSession: samples.first?.captureSessionID, samples: samples)
  }
}

/// A completed shift with the figure measured from its rows when it ended, and how it
/// started and ended (nil when unknown).
public struct ShiftReport: Sendable, Hashable {
  public var shiftID: Int64
  public var startedAt: Date
  public var endedAt: Date
  public var startedBy: ShiftStartCause?
  public var endedBy: ShiftEndCause?
  public var distance: RouteDistance
  /// The unit of the figure beside the metres, and of the summary.
  public var unit: DistanceUnit
  /// RouteQuality's one-line summary: "12.4 mi recorded · partial route".
  public var summary: String
  /// The office's jobs visited in the shift, in the order the car arrived (`JobLedger`).
  public var jobs: [WireJob] = []

  public init(
    shiftID: Int64, startedAt: Date, endedAt: Date, startedBy: ShiftStartCause? = nil, endedBy: ShiftEndCause? = nil,
    distance: RouteDistance, unit: DistanceUnit = .miles, summary: String
  ) {
    self.shiftID = shiftID
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.startedBy = startedBy
    self.endedBy = endedBy
    self.distance = distance
    self.unit = unit
    self.summary = summary
  }

  /// The report of an ended shift, its summary worded by `RouteQuality` in `unit`. Nil for
  /// a shift that is still running: only completed shifts are reported.
  public init?(
    shift: Shift, distance: RouteDistance, unit: DistanceUnit = .miles, startedBy: ShiftStartCause? = nil,
    endedBy: ShiftEndCause? = nil
  ) {
    guard let endedAt = shift.endedAt else { return nil }
    self.init(
      shiftID: shift.id, startedAt: shift.startedAt, endedAt: endedAt, startedBy: startedBy, endedBy: endedBy,
      distance: distance, unit: unit, summary: RouteQuality(distance: distance, unit: unit).summary)
  }
}

/// A stop that has ended (`stop.ended`), as `shift show` lists it, and the shift it was in.
public struct StopReport: Sendable, Hashable {
  public var shiftID: Int64?
  public var stop: WireStop

  public init(shiftID: Int64?, stop: WireStop) {
    self.shiftID = shiftID
    self.stop = stop
  }
}

/// A capture session starting or ending, with the reason, so the fleet sees why a route
/// has a gap.
public struct SessionEvent: Sendable, Hashable {
  public enum Phase: String, Sendable, Hashable {
    case start, end
  }

  /// The shift open at the time, if any.
  public var shiftID: Int64?
  public var captureSession: CaptureSessionID
  public var phase: Phase
  public var at: Date
  /// Why, in the capture service's words: "fixes_started", "gpsd_connection_lost", ...
  public var reason: String

  public init(shiftID: Int64?, captureSession: CaptureSessionID, phase: Phase, at: Date, reason: String) {
    self.shiftID = shiftID
    self.captureSession = captureSession
    self.phase = phase
    self.at = at
    self.reason = reason
  }
}

/// The low-rate, retained picture of the car for dashboards: where it is and how the
/// running shift stands. Not queued: only the latest one matters.
public struct LiveStatus: Sendable, Hashable {
  public struct RunningShift: Sendable, Hashable {
    public var shiftID: Int64
    public var startedAt: Date
    public var distance: WireDistance
    public var summary: String

    public init(shiftID: Int64, startedAt: Date, distance: WireDistance, summary: String) {
      self.shiftID = shiftID
      self.startedAt = startedAt
      self.distance = distance
      self.summary = summary
    }

    public init(shift: Shift, distance: RouteDistance, unit: DistanceUnit = .miles) {
      self.init(
        shiftID: shift.id, startedAt: shift.startedAt, distance: WireDistance(distance, unit: unit),
        summary: RouteQuality(distance: distance, unit: unit).summary)
    }

    /// The open shift as `status` shows it (its figure in the daemon's unit).
    public init(_ shift: ShiftSummary) {
      self.init(shiftID: shift.id, startedAt: shift.startedAt, distance: shift.distance, summary: shift.summary)
    }
  }

  /// Where guidance stands, while a route is followed.
  public struct Guidance: Sendable, Hashable {
    /// "waiting_for_fix", "following", "off_route" or "arrived", as `status` says it.
    public var phase: String
    /// Metres still to go along the route; nil until a fix has matched it.
    public var distanceRemaining: Double?

    public init(phase: String, distanceRemaining: Double?) {
      self.phase = phase
      self.distanceRemaining = distanceRemaining
    }

    /// Guidance as `status` shows it.
    public init(_ section: GuidanceSection) {
      self.init(phase: section.phase, distanceRemaining: section.distanceRemainingMetres)
    }
  }

  public var at: Date
  public var position: RouteSample?
  public var shift: RunningShift?
  public var guidance: Guidance?

  public init(at: Date, position: RouteSample?, shift: RunningShift?, guidance: Guidance? = nil) {
    self.at = at
    self.position = position
    self.shift = shift
    self.guidance = guidance
  }
}
