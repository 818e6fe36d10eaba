import DashPilotCore
import FoundationEssentials

/// A named point beside a track (GPX `wpt`): on export, a shift's stops ("Stop 3", at its
/// arrival, its duration as the description).
public struct Waypoint: Sendable, Hashable {
  public var coordinate: GeoCoordinate
  public var time: Date?
  public var name: String?
  public var description: String?

  public init(coordinate: GeoCoordinate, time: Date? = nil, name: String? = nil, description: String? = nil) {
    self.coordinate = coordinate
    self.time = time
    self.name = name
    self.description = description
  }
}
