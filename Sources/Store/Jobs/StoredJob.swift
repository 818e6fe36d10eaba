import DashPilotCore
import FoundationEssentials

/// A job as the ledger keeps it: the job as the office sent it, where it stands, the shift
/// it was done in, and the evidence of the stop that did it (`JobVisit`'s, as told).
public struct StoredJob: Sendable, Hashable {
  public enum State: String, Sendable, Hashable, CaseIterable {
    case queued, arrived, visited
    case notReached = "not_reached"
    case cancelled

    /// Still in the queue.
    public var isOpen: Bool { self == .queued || self == .arrived }
  }

  /// The stop that arrived or visited the job, as told.
  public struct Evidence: Sendable, Hashable {
    public var arrival: Date
    /// The departure; while the job is only arrived, the time the stop was read.
    public var departure: Date
    public var position: GeoCoordinate
    public var distance: Double
    public var receiverReportedThroughout: Bool
    public var withinWindow: Bool?
    /// `Stop.End`'s name: `departed`, `shift_ended`, `before_gap`, `ongoing`...
    public var stopEnd: String

    public init(_ visit: JobVisit) {
      arrival = visit.stop.arrival
      departure = visit.stop.departure
      position = visit.stop.position
      distance = visit.distance
      receiverReportedThroughout = visit.receiverReportedThroughout
      withinWindow = visit.withinWindow
      stopEnd = visit.stop.end.name
    }

    public init(
      arrival: Date, departure: Date, position: GeoCoordinate, distance: Double, receiverReportedThroughout: Bool,
      withinWindow: Bool?, stopEnd: String
    ) {
      self.arrival = arrival
      self.departure = departure
      self.position = position
      self.distance = distance
      self.receiverReportedThroughout = receiverReportedThroughout
      self.withinWindow = withinWindow
      self.stopEnd = stopEnd
    }

    public var duration: TimeInterval { departure.timeIntervalSince(arrival) }

    /// The stop it was read from, as the queue matches a stop's end with it: arrival and
    /// position (its other fields are not kept).
    public var stop: Stop {
      Stop(
        arrival: arrival, departure: departure, start: .arrived, end: .ongoing, position: position, wander: 0,
        positions: 0)
    }
  }

  public var job: DeliveryJob
  public var state: State
  /// The shift it was arrived, visited or found unreached in.
  public var shift: Int64?
  public var evidence: Evidence?

  public init(job: DeliveryJob, state: State, shift: Int64? = nil, evidence: Evidence? = nil) {
    self.job = job
    self.state = state
    self.shift = shift
    self.evidence = evidence
  }
}
