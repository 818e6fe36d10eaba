import DashPilotCore
import FoundationEssentials

/// Turns one line of gpsd's JSON (as read from the libgps session's socket, or a line of
/// `gpspipe -w` output) into a `GPSDReport`. Pure: no I/O, no clock.
///
/// libgps's own unpacking is not used for the values because libgps 3.22 drops facts
/// (a DEVICE with `"activated":0` does not set DEVICE_SET) and leaves stale fields in
/// `gps_data_t` from earlier reports; decoding the raw line gives exactly what gpsd said.
public enum GPSDJSONDecoder {
  /// The report on `line`, or nil when the line is not a JSON object with a `class`
  /// (a `#` comment, an NMEA sentence interleaved in a log, a truncated line).
  public static func decode(_ line: some StringProtocol) -> GPSDReport? {
    decode(utf8: Array(line.utf8)[...])
  }

  /// The same for a line's UTF-8 bytes, as the live source reads them from gpsd's socket.
  public static func decode(utf8 line: ArraySlice<UInt8>) -> GPSDReport? {
    let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    guard trimmed.first == UInt8(ascii: "{") else { return nil }
    guard let fields = GPSDJSONFields(line: trimmed), let className = fields.className
    else { return nil }
    return decode(fields, className: className)
  }

  static func decode(_ object: GPSDJSONFields, className: String) -> GPSDReport {
    switch className {
    case "TPV":
      let mode = integer(object.mode).flatMap(FixCandidate.Mode.init(rawValue:)) ?? .unknown
      return .tpv(
        GPSDTPV(
          mode: mode,
          time: object.time.flatMap(GPSDTime.fixTime),
          latitude: finite(object.lat),
          longitude: finite(object.lon),
          eph: finite(object.eph),
          epx: finite(object.epx),
          epy: finite(object.epy),
          speed: finite(object.speed).flatMap { groundSpeeds.contains($0) ? $0 : nil },
          track: finite(object.track).flatMap { (0...360).contains($0) ? $0 : nil },
          device: object.device))
    case "DEVICE":
      return .device(GPSDDevice(path: object.path, activated: object.activated))
    case "VERSION":
      return .version(
        GPSDVersion(
          release: object.release ?? "",
          protocolMajor: integer(object.protoMajor),
          protocolMinor: integer(object.protoMinor)))
    case "ERROR":
      return .error(message: object.message ?? "")
    default:
      return .other(className: className)
    }
  }

  /// Ground speeds (m/s) a report can mean: gpsd never writes a negative one, and nothing
  /// a DashPilot box rides in goes faster than this. Outside it the speed is garbage and
  /// is dropped rather than kept: the store refuses such a sample whole, and a refused save
  /// would end the capture session over a field the measurement does not even use. A
  /// course outside gpsd's 0-360° is dropped likewise.
  static let groundSpeeds: ClosedRange<Double> = 0...1_000

  static func finite(_ value: Double?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return value
  }

  static func integer(_ value: Double?) -> Int? {
    guard let double = finite(value), double == double.rounded(), abs(double) < 1e9 else { return nil }
    return Int(double)
  }
}
