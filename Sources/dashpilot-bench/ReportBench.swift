// The shift report (issue 18): a 10-hour shift at 10 Hz drawn by the real `dashpilotctl
// report` from the real `dashpilotd`, end to end (the daemon reads and walks the shift and
// simplifies each stretch, the client draws and writes the SVG). Its size must stay under
// 1 MB and the whole command under a second.
import DashPilotCore
import Foundation
import Store
import TestSupport

func runReportBenchmarks(_ report: inout BenchReport) {
  do {
    try ReportBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("report benchmarks failed: \(error)\n".utf8))
  }
}

enum ReportBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static let hours = 10.0
  static let rate = 10.0
  /// Capture lost for two minutes at a time: twice (three stretches, as a real shift has),
  /// and 199 times (a loose receiver: every gap labelled on one drawing).
  static let gapSeconds = 120.0

  static func run(_ report: inout BenchReport) throws {
    try measure(&report, sessionCount: 3, label: "10h_10hz")
    try measure(&report, sessionCount: 200, label: "10h_10hz_199_gaps")
  }

  static func measure(_ report: inout BenchReport, sessionCount: Int, label: String) throws {
    let directory = try TestPaths.temporaryDirectory("report-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let samples = try writeShift(to: database, sessionCount: sessionCount)

    let daemon = try DaemonUnderTest(arguments: ["--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let path = directory.appendingPathComponent("shift-1.svg").path
    var times: [Double] = []
    for _ in 0..<3 {
      var outcome: ProcessOutcome?
      let seconds = try report.seconds { outcome = try daemon.control(["report", "1", "-o", path]) }
      guard let outcome, outcome.status == 0 else {
        throw Failure(description: "dashpilotctl report failed: \(outcome?.standardError ?? "")")
      }
      times.append(seconds)
    }
    // The daemon's part alone: its answer to `report` over the socket (read, walk, simplify).
    var daemonTimes: [Double] = []
    for _ in 0..<3 {
      let client = try RawSocketClient(path: daemon.socketPath)
      var answer: String?
      daemonTimes.append(
        report.seconds {
          _ = client.send(#"{"v":1,"id":1,"cmd":"report","args":{"id":1}}"# + "\n")
          answer = client.readLine(timeout: 120)
        })
      guard let answer, answer.contains("\"ok\":true") else {
        throw Failure(description: "the daemon's report answer: \(answer?.prefix(300) ?? "none")")
      }
    }
    let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    report.record("report.\(label)_bytes", Double(bytes), "bytes")
    report.record("report.\(label)_seconds", (times.sorted()[1] * 1000).rounded() / 1000, "s")
    report.record("report.\(label)_daemon_seconds", (daemonTimes.sorted()[1] * 1000).rounded() / 1000, "s")
    print("  (\(samples) positions in \(sessionCount) stretches; median of 3 runs of dashpilotctl report)")
  }

  /// The shift: 10 hours at 10 Hz along a winding road at 15 m/s, written as capture
  /// writes it (sessions begun and ended, samples appended in batches). Its sample count.
  static func writeShift(to path: String, sessionCount: Int) throws -> Int {
    let store = try SampleStore(path: path)
    let start = Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime)
    let total = Int(hours * 3600 * rate)
    let perSession = total / sessionCount
    let shift = try store.startShift(at: start)
    var position = GeoCoordinate(latitude: 51.5, longitude: -0.12)
    var bearing = 0.0
    var time = start
    for session in 0..<sessionCount {
      // A session is named by a UUID, as capture names one.
      let id = CaptureSessionID("7d0f5a2e-3c1b-4e8a-9b6d-\(String(format: "%012d", session))")
      try store.beginCaptureSession(id, at: time, shiftID: shift.id)
      var batch: [RouteSample] = []
      for index in 0..<perSession {
        let k = session * perSession + index
        bearing += sin(Double(k) / 900) * 0.6
        position = GeographicDistance.destination(from: position, bearing: bearing, distance: 1.5)
        time += 1 / rate
        batch.append(
          RouteSample(
            timestamp: time, coordinate: position, horizontalAccuracy: 3, speed: 15,
            course: (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360),
            captureSessionID: id))
        if batch.count == 10_000 {
          try store.append(batch, toShift: shift.id)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { try store.append(batch, toShift: shift.id) }
      try store.endCaptureSession(id, at: time, reason: "device_deactivated", device: "/dev/ttyACM0", shiftID: shift.id)
      // The car drives on while nothing is captured.
      time += gapSeconds
      position = GeographicDistance.destination(from: position, bearing: bearing, distance: 15 * gapSeconds)
    }
    _ = try store.endShift(shift.id, at: time)
    try store.checkpoint()
    return perSession * sessionCount
  }
}
