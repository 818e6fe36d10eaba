import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

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
  /// The fix time (`GPSDTime.fixTime`), read from the member's bytes: every TPV has one,
  /// and a String of it cost an allocation a report.
  var time: Date?
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

  /// The fields of `line` (UTF-8), nil unless the whole line is one valid JSON object.
  init?(line: ArraySlice<UInt8>) {
    var fields = GPSDJSONFields()
    let valid = line.withUnsafeBufferPointer { buffer in
      var scanner = GPSDJSONScanner(buffer)
      return scanner.scanObject(with: { key, value in fields.take(key, value) })
    }
    guard valid else { return nil }
    self = fields
  }

  private init() {}

  private mutating func take(_ key: UnsafeBufferPointer<UInt8>, _ value: GPSDJSONScanner.Value) {
    guard let member = Member(key) else { return }
    switch (member, value) {
    case (.class, .text(let text)): className = Self.string(text)
    case (.mode, .number(let number)): mode = GPSDJSONScanner.double(number)
    case (.time, .text(let text)): time = GPSDTime.fixTime(utf8: text)
    case (.lat, .number(let number)): lat = GPSDJSONScanner.double(number)
    case (.lon, .number(let number)): lon = GPSDJSONScanner.double(number)
    case (.eph, .number(let number)): eph = GPSDJSONScanner.double(number)
    case (.epx, .number(let number)): epx = GPSDJSONScanner.double(number)
    case (.epy, .number(let number)): epy = GPSDJSONScanner.double(number)
    case (.speed, .number(let number)): speed = GPSDJSONScanner.double(number)
    case (.track, .number(let number)): track = GPSDJSONScanner.double(number)
    case (.device, .text(let text)): device = Self.string(text)
    case (.path, .text(let text)): path = Self.string(text)
    case (.activated, .text(let text)): activated = !text.isEmpty
    case (.activated, .number(let number)): activated = GPSDJSONScanner.double(number).map { $0 != 0 }
    case (.release, .text(let text)): release = Self.string(text)
    case (.protoMajor, .number(let number)): protoMajor = GPSDJSONScanner.double(number)
    case (.protoMinor, .number(let number)): protoMinor = GPSDJSONScanner.double(number)
    case (.message, .text(let text)): message = Self.string(text)
    default: break
    }
  }

  private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

  /// The members read, found by the key's bytes (a key is compared only with those of its
  /// length), so no String is made of the keys of the many members nobody reads.
  private enum Member {
    case `class`, mode, time, lat, lon, eph, epx, epy, speed, track, device, path, activated, release
    case protoMajor, protoMinor, message

    init?(_ key: UnsafeBufferPointer<UInt8>) {
      // The caller has matched the length; memcmp, because the generic `elementsEqual`
      // cost about 200 instructions a key, a tenth of a report's decoding.
      func isKey(_ name: StaticString) -> Bool {
        memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
      }
      switch key.count {
      case 3:
        if isKey("lat") {
          self = .lat
        } else if isKey("lon") {
          self = .lon
        } else if isKey("eph") {
          self = .eph
        } else if isKey("epx") {
          self = .epx
        } else if isKey("epy") {
          self = .epy
        } else {
          return nil
        }
      case 4:
        if isKey("mode") {
          self = .mode
        } else if isKey("time") {
          self = .time
        } else if isKey("path") {
          self = .path
        } else {
          return nil
        }
      case 5:
        if isKey("class") {
          self = .class
        } else if isKey("speed") {
          self = .speed
        } else if isKey("track") {
          self = .track
        } else {
          return nil
        }
      case 6:
        if isKey("device") { self = .device } else { return nil }
      case 7:
        if isKey("release") { self = .release } else if isKey("message") { self = .message } else { return nil }
      case 9:
        if isKey("activated") { self = .activated } else { return nil }
      case 11:
        if isKey("proto_major") {
          self = .protoMajor
        } else if isKey("proto_minor") {
          self = .protoMinor
        } else {
          return nil
        }
      default:
        return nil
      }
    }
  }
}
