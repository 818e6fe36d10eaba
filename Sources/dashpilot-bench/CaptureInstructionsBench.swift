// Instructions per gpsd report through what the daemon runs for each one: the gpsd source
// reading a socket (GPSDSource), decoding, CaptureService with the filter, and the store
// (StoreSampleSink into a real SQLite file), counted by valgrind's callgrind, so the figure
// is the same from run to run however busy the machine is. The bench runs itself as the
// child (`--capture-instructions-child`) over two fixed logs of different lengths served by
// a stand-in gpsd on loopback; the difference divided by the difference in fixes is the
// cost of a fix without the process's start and end.
import Capture
import DashPilotCore
import Foundation
import GPSD
import PlatformSupport
import Store
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

enum CaptureInstructionsBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static let childFlag = "--capture-instructions-child"
  static let shortLog = 400
  static let longLog = 1_600

  static func run(_ report: inout BenchReport) throws {
    guard access("/usr/bin/valgrind", X_OK) == 0 else {
      FileHandle.standardError.write(
        Data("capture.instructions_per_fix needs valgrind (scripts/deps/bench.txt)\n".utf8))
      return
    }
    let directory = try TestPaths.temporaryDirectory("instructions-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    // valgrind 3.19 (Debian 12) stops at the DWARF 5 forms the Swift toolchain writes, so
    // callgrind runs a copy of this program without its debug sections (symbols kept).
    let child = directory.appendingPathComponent("dashpilot-bench-child").path
    try stripDebugSections(of: CommandLine.arguments[0], into: child)
    var counts: [Int: Int64] = [:]
    for fixes in [shortLog, longLog] {
      let log = directory.appendingPathComponent("drive-\(fixes).json")
      try gpsdLog(fixes: fixes).write(to: log, atomically: true, encoding: .utf8)
      counts[fixes] = try instructions(
        child: child, log: log.path, database: directory.appendingPathComponent("\(fixes).sqlite").path)
    }
    guard let short = counts[shortLog], let long = counts[longLog] else { return }
    let perFix = Double(long - short) / Double(longLog - shortLog)
    report.record("capture.instructions_per_fix", perFix.rounded(), "instructions")
    report.record("capture.instructions_per_report", (perFix / 2).rounded(), "instructions")
  }

  /// Copies the executable at `path` to `copy` without its debug sections (`objcopy`).
  static func stripDebugSections(of path: String, into copy: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
    process.arguments = ["--strip-debug", path, copy]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "objcopy --strip-debug \(path) failed (\(process.terminationStatus))")
    }
  }

  /// What callgrind counted for `child` (this program, stripped) over `log`.
  static func instructions(child: String, log: String, database: String) throws -> Int64 {
    let output = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
    process.arguments = [
      "--tool=callgrind", "--callgrind-out-file=/dev/null", child, childFlag, log, database,
    ]
    process.standardError = output
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }),
      let count = Int64(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
    else {
      throw Failure(description: "callgrind over the capture child failed (\(process.terminationStatus)): \(text)")
    }
    return count
  }

  /// A 10 Hz drive as gpsd 3.22 writes it for an RMC, GGA, GSA, GST receiver: after the
  /// greeting, each fix is one TPV and one GST (the lines of a real gpsd's output).
  static func gpsdLog(fixes: Int) -> String {
    var lines = [
      #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
      #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/2","activated":"2024-06-01T07:59:58.775Z","native":0,"bps":38400,"parity":"N","stopbits":1,"cycle":1.00}]}"#,
      #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
      #"{"class":"DEVICE","path":"/dev/pts/2","driver":"NMEA0183","activated":"2024-06-01T07:59:59.773Z","native":0,"bps":38400,"parity":"N","stopbits":1,"cycle":1.00}"#,
    ]
    for k in 0..<fixes {
      let seconds = Double(k) / 10
      let position = GeographicDistance.destination(from: BenchDrive.start, bearing: 90, distance: seconds * 12)
      let time = GPSDTimeText.iso(BenchDrive.firstFixTime + seconds)
      let lat = String(format: "%.9f", position.latitude)
      let lon = String(format: "%.9f", position.longitude)
      lines.append(
        #"{"class":"TPV","device":"/dev/pts/2","mode":3,"time":"\#(time)","ept":0.005,"lat":\#(lat),"lon":\#(lon),"altHAE":59.0000,"altMSL":12.0000,"alt":12.0000,"epv":25.300,"track":90.0000,"magtrack":91.5080,"magvar":1.5,"speed":12.002,"climb":0.000,"epc":506.00,"geoidSep":47.000,"eph":17.100,"sep":26.600}"#
      )
      lines.append(
        #"{"class":"GST","device":"/dev/pts/2","time":"\#(time)","rms":2.700,"major":2.700,"minor":2.700,"orient":0.000,"lat":2.700,"lon":2.700,"alt":4.000}"#
      )
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }
}
