/// The members of one gpsd JSON object that DashPilot reads. A member of the wrong type or
/// beyond Double's range (`"lat":"x"`, `"speed":1e400`) is absent and the rest of the
/// report still counts; a line that is not one whole, valid JSON object does not decode.
///
/// Read by `GPSDJSONScanner` rather than JSONDecoder: every line gpsd sends (SKY reports
/// with dozens of satellites included) passes through here, and the generic decoder cost
/// about four fifths of the daemon's CPU per fix (perf, `make bench` reliability figures).
struct GPSDJSONFields {
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

  /// The fields of `line`, nil unless the whole line is one valid JSON object.
  init?(line: some StringProtocol) {
    var scanner = GPSDJSONScanner(Array(line.utf8))
    var fields = GPSDJSONFields()
    guard scanner.scanObject(with: { key, value in fields.take(key, value) }) else { return nil }
    self = fields
  }

  private init() {}

  private mutating func take(_ key: String, _ value: GPSDJSONScanner.Value) {
    switch (key, value) {
    case ("class", .text(let text)): className = text
    case ("mode", .number(let number)): mode = number
    case ("time", .text(let text)): time = text
    case ("lat", .number(let number)): lat = number
    case ("lon", .number(let number)): lon = number
    case ("eph", .number(let number)): eph = number
    case ("epx", .number(let number)): epx = number
    case ("epy", .number(let number)): epy = number
    case ("speed", .number(let number)): speed = number
    case ("track", .number(let number)): track = number
    case ("device", .text(let text)): device = text
    case ("path", .text(let text)): path = text
    case ("activated", .text(let text)): activated = !text.isEmpty
    case ("activated", .number(let number)): activated = number != 0
    case ("release", .text(let text)): release = text
    case ("proto_major", .number(let number)): protoMajor = number
    case ("proto_minor", .number(let number)): protoMinor = number
    case ("message", .text(let text)): message = text
    default: break
    }
  }
}
