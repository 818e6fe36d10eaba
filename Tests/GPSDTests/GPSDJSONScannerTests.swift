import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// The decoder's own JSON reader against Foundation's JSONSerialization as the oracle: on
/// every line gpsd wrote in its regression suite, and on those lines cut short and with
/// bytes flipped, both must agree on whether the line is a JSON object with a class, and
/// on every number and string the decoder reads from it.
struct GPSDJSONScannerTests {
  /// What JSONSerialization makes of `line`, in the decoder's terms. A line that opens
  /// with the class of a report nothing reads is that class whatever follows: the decoder
  /// does not read such a line past its opening.
  static func oracle(_ line: String) -> GPSDReport? {
    if let match = line.firstMatch(of: /^[ \t]*\{"class":"([A-Z]{1,17})"[,}]/),
      !["TPV", "DEVICE", "VERSION", "ERROR"].contains(String(match.1))
    {
      return .other(className: String(match.1))
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let className = object["class"] as? String
    else { return nil }
    func number(_ key: String) -> Double? {
      // true and false are not numbers to the decoder (JSONSerialization hands them over as Bool).
      guard let raw = object[key], "\(type(of: raw))" != "Bool", let value = raw as? NSNumber,
        value.doubleValue.isFinite
      else { return nil }
      return value.doubleValue
    }
    func integer(_ key: String) -> Int? {
      guard let value = number(key), value == value.rounded(), abs(value) < 1e9 else { return nil }
      return Int(value)
    }
    switch className {
    case "TPV":
      return .tpv(
        GPSDTPV(
          mode: integer("mode").flatMap(FixCandidate.Mode.init(rawValue:)) ?? .unknown,
          time: (object["time"] as? String).flatMap(GPSDTime.fixTime),
          latitude: number("lat"), longitude: number("lon"), eph: number("eph"), epx: number("epx"),
          epy: number("epy"), speed: number("speed").flatMap { (0...1_000).contains($0) ? $0 : nil },
          track: number("track").flatMap { (0...360).contains($0) ? $0 : nil }, device: object["device"] as? String))
    case "DEVICE":
      let activated: Bool? =
        if let text = object["activated"] as? String { !text.isEmpty } else { number("activated").map { $0 != 0 } }
      return .device(GPSDDevice(path: object["path"] as? String, activated: activated))
    case "VERSION":
      return .version(
        GPSDVersion(
          release: object["release"] as? String ?? "", protocolMajor: integer("proto_major"),
          protocolMinor: integer("proto_minor")))
    case "ERROR":
      return .error(message: object["message"] as? String ?? "")
    default:
      return .other(className: className)
    }
  }

  static func gpsdLines() throws -> [String] {
    let folder = TestPaths.gpsdLogs
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".chk") }
      .sorted()
    var lines: [String] = []
    for name in names {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      lines += text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") }
    }
    return lines
  }

  @Test(.requiresGPSDLogs) func agreesWithJSONSerializationOnEveryLineGPSDWrote() throws {
    let lines = try Self.gpsdLines()
    #expect(lines.count > 10_000)
    var disagreements: [String] = []
    for line in lines where GPSDJSONDecoder.decode(line) != Self.oracle(line) {
      disagreements.append(line)
    }
    #expect(disagreements.count == 0, "\(disagreements.prefix(3))")
  }

  @Test(.requiresGPSDLogs) func agreesOnLinesCutShortAndDamaged() throws {
    let lines = try Self.gpsdLines()
    var generator = SeededGenerator(seed: 8)
    var checked = 0
    var accepted = 0
    var disagreements: [String] = []
    let damage: [UInt8] = Array(#"{}[]",:"\0123456789eE+-.tfnul "#.utf8) + [0x01, 0x7F, 0xC3]
    for _ in 0..<4_000 {
      let line = Array(lines[Int.random(in: 0..<lines.count, using: &generator)].utf8)
      var bytes = line
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
      case 1: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = damage.randomElement(using: &generator)!
      default: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let ours = GPSDJSONDecoder.decode(text)
      if ours != Self.oracle(text) { disagreements.append(text) }
      if ours != nil { accepted += 1 }
      checked += 1
    }
    #expect(checked == 4_000)
    // Some damage leaves valid JSON (a digit for a digit): both readers must then agree too.
    #expect(accepted > 100)
    #expect(disagreements.count == 0, "\(disagreements.prefix(3))")
  }

  @Test func aReportNothingReadsIsNotReadPastItsClass() {
    #expect(GPSDJSONDecoder.decode(#"{"class":"SKY","xdop":0.5,"sat"#) == .other(className: "SKY"))
    #expect(GPSDJSONDecoder.decode(#"{"class":"GST"}"#) == .other(className: "GST"))
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","lat":1.5,"lon"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"DEVICE","path":"/dev/x","activated":0,"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"SKY"x,"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"Sky",,"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"SKY\u0041","#) == nil)
  }

  @Test func escapesAndNestingAreReadAsJSONDefinesThem() {
    let line = #"{"class":"ERROR","message":"a\"b\\c\/d\u00e9\ud83d\ude97\n","x":[{"y":[1,2,{"z":null}]},true,false]}"#
    #expect(GPSDJSONDecoder.decode(line) == .error(message: "a\"b\\c/dé🚗\n"))
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","x":\#(deep)}"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV"} x"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","lat":01}"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","lat":+1}"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","lat":1.}"#) == nil)
    #expect(GPSDJSONDecoder.decode("{\"class\":\"TPV\",\"device\":\"a\tb\"}") == nil)
  }
}
