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
  /// (a `#` comment, an NMEA sentence interleaved in a log, a truncated line). A line of a
  /// class nothing reads is `.other` from its opening alone (`unreadClass`).
  public static func decode(_ line: some StringProtocol) -> GPSDReport? {
    decode(utf8: Array(line.utf8)[...])
  }

  /// The same for a line's UTF-8 bytes, as the live source reads them from gpsd's socket.
  public static func decode(utf8 line: ArraySlice<UInt8>) -> GPSDReport? {
    let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    guard trimmed.first == UInt8(ascii: "{") else { return nil }
    if let unread = unreadClass(trimmed) { return .other(className: unread) }
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
          time: object.time,
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

  /// How every object gpsd writes opens.
  private static let classOpening: [UInt8] = Array(#"{"class":""#.utf8)

  /// The class of a line that opens `{"class":"NAME",` (as gpsd writes every object) when
  /// NAME is not a class `decode` reads (TPV, DEVICE, VERSION, ERROR): such a line is not
  /// read past its class, whole JSON or not, since nothing reads the rest. It is most of
  /// what gpsd sends (a SKY and a GST beside each TPV): scanning it whole was a sixth of
  /// the instructions capture spends on a fix (`capture.instructions_per_fix`, 33,690 to
  /// 28,226 with a TPV and a GST a fix), paid at every report of a receiver's real pace.
  static func unreadClass(_ line: ArraySlice<UInt8>) -> String? {
    guard line.count > classOpening.count + 2,
      zip(line, classOpening).allSatisfy({ $0 == $1 })
    else { return nil }
    let nameStart = line.startIndex + classOpening.count
    var end = nameStart
    // A class is a short upper-case word; anything else (an escape, the end of the line)
    // is read the whole way.
    while end < line.endIndex, end - nameStart <= 16, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(line[end]) {
      end += 1
    }
    guard end > nameStart, end + 1 < line.endIndex, line[end] == UInt8(ascii: "\""),
      line[end + 1] == UInt8(ascii: ",") || line[end + 1] == UInt8(ascii: "}")
    else { return nil }
    let name = String(decoding: line[nameStart..<end], as: UTF8.self)
    switch name {
    case "TPV", "DEVICE", "VERSION", "ERROR": return nil
    default: return name
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
