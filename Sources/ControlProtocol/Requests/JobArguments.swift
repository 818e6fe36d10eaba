import DashPilotCore
import FoundationEssentials

/// `job.assign`'s arguments as the wire writes them: the other half of
/// `ArgumentReader.job()`.
public enum JobArguments {
  /// An office's ids (a UUID, an order number) with room to spare.
  public static let maximumIDBytes = 64

  static func members(of job: DeliveryJob) -> [String: JSONValue] {
    var members: [String: JSONValue] = [
      "id": .string(job.id), "name": .string(job.name), "radius_m": .number(job.radius),
      "destination": WireCoordinate(lat: job.destination.latitude, lon: job.destination.longitude).jsonValue,
    ]
    if let window = job.window {
      members["window_start"] = UTCTimestamp.string(window.start).map(JSONValue.string)
      members["window_end"] = UTCTimestamp.string(window.end).map(JSONValue.string)
    }
    if let note = job.note { members["note"] = .string(note) }
    return members
  }
}
