import FoundationEssentials

/// What the car did at a job, from the stop it made there (`Stop`, the one `shift show`
/// lists): the evidence the office can show a customer.
public struct JobVisit: Sendable, Hashable {
  /// The stop: arrival, departure (or the time it was read while it goes on), position.
  public var stop: Stop
  /// How far (metres) the stop's position lay from the job's destination.
  public var distance: Double
  /// Whether the receiver reported from the arrival to the departure: a stop that began
  /// after, or ended in, a gap in capture is only known in part.
  public var receiverReportedThroughout: Bool
  /// Whether the arrival fell within the job's window; nil for a job without one.
  public var withinWindow: Bool?

  public init(job: DeliveryJob, stop: Stop) {
    self.stop = stop
    distance = job.distance(from: stop.position)
    var reported = true
    if case .afterGap = stop.start { reported = false }
    if case .beforeGap = stop.end { reported = false }
    receiverReportedThroughout = reported
    withinWindow = job.window.map { $0.contains(stop.arrival) }
  }
}
