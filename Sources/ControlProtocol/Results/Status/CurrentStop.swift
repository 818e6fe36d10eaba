import DashPilotCore
import FoundationEssentials

/// The stop the vehicle stands in now (`status`'s `capture.stop`, null while it moves and
/// until it has stood `[Stops] MinimumStop=`): when it arrived (`since`), how long it has
/// stood by the receiver's clock (`seconds`), how the stop began as `shift show` says it
/// (`start`), and where it stands.
public struct CurrentStop: Sendable, Hashable, Codable {
  public var since: Date
  public var seconds: Double
  public var start: String
  public var latitude: Double
  public var longitude: Double

  public init(_ stop: Stop) {
    since = stop.arrival
    seconds = stop.duration
    start = stop.start.name
    latitude = stop.position.latitude
    longitude = stop.position.longitude
  }
}
