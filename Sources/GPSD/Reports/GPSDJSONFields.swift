import FoundationEssentials

/// The members of one gpsd JSON object that DashPilot reads, each decoded on its own: a
/// member of the wrong type or out of Double's range (`"lat":"x"`, `"speed":1e400`) is
/// absent, and the rest of the report still counts. A line that is not a JSON object at
/// all does not decode.
struct GPSDJSONFields: Decodable {
  var className: String?
  var mode: Double?
  var time: String?
  var lat: Double?
  var lon: Double?
  var eph: Double?
  var epx: Double?
  var epy: Double?
  var speed: Double?
  var track: Double?
  var device: String?
  var path: String?
  /// gpsd writes an activation time as an ISO-8601 string (older releases: a number of
  /// seconds) and a removal as the number 0.
  var activated: Bool?
  var release: String?
  var protoMajor: Double?
  var protoMinor: Double?
  var message: String?

  enum Key: String, CodingKey {
    case className = "class"
    case mode, time, lat, lon, eph, epx, epy, speed, track, device, path, activated, release, message
    case protoMajor = "proto_major"
    case protoMinor = "proto_minor"
  }

  init(from decoder: any Decoder) throws {
    let members = try decoder.container(keyedBy: Key.self)
    func text(_ key: Key) -> String? { (try? members.decodeIfPresent(String.self, forKey: key)) ?? nil }
    func number(_ key: Key) -> Double? { (try? members.decodeIfPresent(Double.self, forKey: key)) ?? nil }
    className = text(.className)
    mode = number(.mode)
    time = text(.time)
    lat = number(.lat)
    lon = number(.lon)
    eph = number(.eph)
    epx = number(.epx)
    epy = number(.epy)
    speed = number(.speed)
    track = number(.track)
    device = text(.device)
    path = text(.path)
    if let stamp = text(.activated) {
      activated = !stamp.isEmpty
    } else if let seconds = number(.activated) {
      activated = seconds != 0
    }
    release = text(.release)
    protoMajor = number(.protoMajor)
    protoMinor = number(.protoMinor)
    message = text(.message)
  }
}
