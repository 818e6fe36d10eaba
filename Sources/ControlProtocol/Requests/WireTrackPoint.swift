import DashPilotCore

/// A recorded position on the wire: where, when (seconds since 1970 UTC, so a track of
/// thousands of points needs no date parsing) and, when known, the horizontal error in
/// metres.
public struct WireTrackPoint: Sendable, Hashable, Codable {
  public var lat: Double
  public var lon: Double
  public var time: Double
  /// Metres (95 %), when the file gave an error estimate; without one the daemon judges
  /// the point with its assumed accuracy.
  public var accuracy: Double?
  /// The logger's fix type as GPX writes it (one of `fixTypes`).
  public var fix: String?
  public static let fixTypes: Set<String> = ["none", "2d", "3d", "dgps", "pps"]
  /// Ground speed, m/s.
  public var speed: Double?

  public init(
    lat: Double, lon: Double, time: Double, accuracy: Double? = nil, fix: String? = nil, speed: Double? = nil
  ) {
    self.lat = lat
    self.lon = lon
    self.time = time
    self.accuracy = accuracy
    self.fix = fix
    self.speed = speed
  }

  var jsonValue: JSONValue {
    var members: [String: JSONValue] = ["lat": .number(lat), "lon": .number(lon), "time": .number(time)]
    if let accuracy { members["accuracy"] = .number(accuracy) }
    if let fix { members["fix"] = .string(fix) }
    if let speed { members["speed"] = .number(speed) }
    return .object(members)
  }
}
