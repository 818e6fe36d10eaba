import FoundationEssentials

/// A stop the office wants made: somewhere to be (a point and a radius around it), with a
/// name a driver reads and hears, and, if the customer was promised one, a time window.
/// Sent by `job.assign`; kept by `JobQueue` in the order it came.
public struct DeliveryJob: Sendable, Hashable, Codable {
  /// The office's id: once per job, as a fleet command's id is once per command.
  public var id: String
  public var name: String
  public var destination: GeoCoordinate
  /// How near (metres) a stop's position must be to the destination for the stop to be
  /// this job's: a delivery address's forecourt, not the street.
  public var radius: Double
  /// When the customer expects the car, if a time was promised.
  public var window: DateInterval?
  /// What the office wants the driver to know (a door code, "ring twice").
  public var note: String?

  /// A forecourt or a short street frontage: a car that stopped at the address stood within it.
  public static let defaultRadius: Double = 50
  /// Below it a receiver's own scatter (5-15 m standing) would refuse a car at the door;
  /// above it a stop at the neighbour's would count.
  public static let radiusRange: ClosedRange<Double> = 10...1_000

  public init(
    id: String, name: String, destination: GeoCoordinate, radius: Double = DeliveryJob.defaultRadius,
    window: DateInterval? = nil, note: String? = nil
  ) {
    self.id = id
    self.name = name
    self.destination = destination
    self.radius = radius
    self.window = window
    self.note = note
  }

  /// How far (metres) `position` lies from the destination.
  public func distance(from position: GeoCoordinate) -> Double {
    GeographicDistance.metres(from: destination, to: position)
  }

  /// Whether a stop at `position` is this job's.
  public func isReached(at position: GeoCoordinate) -> Bool { distance(from: position) <= radius }
}
