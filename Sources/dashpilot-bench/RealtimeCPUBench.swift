// End to end at a real receiver's pace: one real gpsd fed 10 fixes a second for two
// minutes, with `dashpilotd` (recording a shift), `gpxlogger` and `gpspipe -w` connected
// to it in the same run; and a parked car's receiver at 1 Hz. At 100 times real time
// reports come in bursts and the costs that do not depend on the data (thread hand-offs,
// wake-ups, the tick, the commit) are shared among many; at real pace each report pays
// them, which is what a box on the road pays. CPU is read over every thread
// (`ProcessFigures.cpuSeconds`) and scaled to an hour of driving.
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

enum RealtimeCPUBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  /// Two minutes of a 10 Hz receiver.
  static let drivingFixes = 1_200
  static let drivingHertz = 10
  /// Two minutes of a parked car's 1 Hz receiver.
  static let parkedFixes = 120

  /// The processes of one run: dashpilotd recording a shift, and the peers on its gpsd.
  final class Run {
    let directory: URL
    let receiver: GPSDFullSpeedReceiver
    let daemon: DaemonUnderTest
    var peers: [(String, GPSDChildProcess)] = []
    let pipePath: String
    let gpxPath: String

    init(label: String, peers names: [String]) throws {
      directory = try TestPaths.temporaryDirectory("e2e-\(label)-bench")
      receiver = try GPSDFullSpeedReceiver()
      let server = "127.0.0.1:\(receiver.port)"
      daemon = try DaemonUnderTest(arguments: ["--gpsd", server])
      pipePath = directory.appendingPathComponent("gpspipe.json").path
      gpxPath = directory.appendingPathComponent("gpxlogger.gpx").path
      try daemon.waitUntilReady(timeout: 30)
      guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
        throw Failure(description: "dashpilotd never connected to gpsd: \(daemon.log)")
      }
      _ = try daemon.controlJSON(["shift", "start"])
      if names.contains("gpxlogger") {
        peers.append(
          (
            "gpxlogger",
            try GPSDChildProcess(
              executable: "/usr/bin/gpxlogger", arguments: ["-e", "sockets", "-f", gpxPath, server],
              outputPath: gpxPath + ".log")
          ))
      }
      // gpspipe is always there: its WATCH answer says gpsd is serving its clients.
      let gpspipe = try GPSDChildProcess(
        executable: "/usr/bin/gpspipe", arguments: ["-w", server], outputPath: pipePath)
      if names.contains("gpspipe") { peers.append(("gpspipe", gpspipe)) } else { extra = gpspipe }
      guard ProcessFigures.waitFor(timeout: 20, { ProcessFigures.fileText(pipePath).contains("\"class\":\"WATCH\"") })
      else { throw Failure(description: "gpspipe never got gpsd's WATCH answer") }
      usleep(1_000_000)
    }

    private var extra: GPSDChildProcess?

    var processes: [(String, pid_t)] { [("dashpilotd", daemon.pid)] + peers.map { ($0.0, $0.1.pid) } }

    func cpu() throws -> [String: Double] {
      var result: [String: Double] = [:]
      for (name, pid) in processes {
        guard let seconds = ProcessFigures.cpuSeconds(of: pid) else {
          throw Failure(description: "no CPU figure for \(name) (pid \(pid))")
        }
        result[name] = seconds
      }
      return result
    }

    /// Waits until gpspipe has printed the fix at `lastFixTime`, then long enough for the
    /// daemon to judge it on its tick and commit it.
    func waitForLastFix(_ lastFixTime: TimeInterval) throws {
      let mark = BenchDrive.tpvTimeMark(lastFixTime)
      guard ProcessFigures.waitFor(timeout: 60, { ProcessFigures.fileText(pipePath).contains(mark) }) else {
        throw Failure(description: "gpspipe never printed the last fix (\(mark))")
      }
      usleep(2_500_000)
    }

    func stop() {
      for (_, peer) in peers { peer.killGroup() }
      extra?.killGroup()
      daemon.stop()
      receiver.stop()
      try? FileManager.default.removeItem(at: directory)
    }
  }

  static func run(_ report: inout BenchReport) throws {
    try driving(&report)
    try parked(&report)
  }

  /// dashpilotd, gpxlogger and gpspipe on one gpsd fed a 10 Hz receiver in real time.
  static func driving(_ report: inout BenchReport) throws {
    let run = try Run(label: "realtime", peers: ["gpxlogger", "gpspipe"])
    defer { run.stop() }
    let before = try run.cpu()
    let threadsBefore = ProcessFigures.cpuSecondsByThread(of: run.daemon.pid)
    let fed = try BenchDrive.feed(run.receiver, fixes: drivingFixes, hertz: drivingHertz) {
      BenchDrive.driving($0, hertz: drivingHertz)
    }
    try run.waitForLastFix(BenchDrive.firstFixTime + Double(drivingFixes - 1) / Double(drivingHertz))
    let after = try run.cpu()
    let threadsAfter = ProcessFigures.cpuSecondsByThread(of: run.daemon.pid)
    let status = try run.daemon.controlJSON(["status"])
    let capture = status.object("capture") ?? [:]
    let judged = (capture["accepted"] as? Int ?? 0) + (capture["rejected"] as? [String: Int] ?? [:]).values.reduce(0, +)
    let points = ProcessFigures.fileText(run.gpxPath).components(separatedBy: "<trkpt").count - 1

    let hours = Double(drivingFixes) / Double(drivingHertz) / 3600
    report.record("e2e.realtime_fixes_fed", Double(drivingFixes), "fixes")
    report.record("e2e.realtime_feed_seconds", (fed * 100).rounded() / 100, "s")
    report.record("e2e.realtime_dashpilotd_fixes_judged", Double(judged), "fixes")
    report.record("e2e.realtime_gpxlogger_track_points", Double(points), "points")
    var perHour: [String: Double] = [:]
    for (name, _) in run.processes {
      let value = ((after[name] ?? 0) - (before[name] ?? 0)) / hours
      perHour[name] = value
      report.record("e2e.realtime_\(name)_cpu_seconds_per_hour", (value * 100).rounded() / 100, "s")
    }
    for (thread, seconds) in threadsAfter.sorted(by: { $0.key < $1.key }) {
      let spent = (seconds - (threadsBefore[thread] ?? 0)) / hours
      FileHandle.standardError.write(Data("e2e realtime: dashpilotd thread \(thread): \(spent) CPU s/h\n".utf8))
    }
    if let daemon = perHour["dashpilotd"], let gpxlogger = perHour["gpxlogger"], gpxlogger > 0 {
      report.record("e2e.realtime_cpu_ratio_to_gpxlogger", (daemon / gpxlogger * 100).rounded() / 100, "ratio")
    }
    if let daemon = perHour["dashpilotd"], let gpspipe = perHour["gpspipe"], gpspipe > 0 {
      report.record("e2e.realtime_cpu_ratio_to_gpspipe", (daemon / gpspipe * 100).rounded() / 100, "ratio")
    }
  }

  /// A parked car with its receiver on at 1 Hz and a shift open: dashpilotd beside
  /// gpxlogger, which logs every fix.
  static func parked(_ report: inout BenchReport) throws {
    let run = try Run(label: "parked", peers: ["gpxlogger"])
    defer { run.stop() }
    let before = try run.cpu()
    let writtenBefore = ProcessFigures.writeBytes(of: run.daemon.pid) ?? 0
    _ = try BenchDrive.feed(run.receiver, fixes: parkedFixes, hertz: 1, BenchDrive.parked)
    try run.waitForLastFix(BenchDrive.firstFixTime + Double(parkedFixes - 1))
    let after = try run.cpu()
    let written = (ProcessFigures.writeBytes(of: run.daemon.pid) ?? 0) - writtenBefore
    let hours = Double(parkedFixes) / 3600
    let status = try run.daemon.controlJSON(["status"])
    let stored = status.object("shift.distance")?["usable_positions"] as? Int ?? -1
    report.record("e2e.parked_fixes_fed", Double(parkedFixes), "fixes")
    report.record("e2e.parked_dashpilotd_stored_samples", Double(stored), "samples")
    let daemon = ((after["dashpilotd"] ?? 0) - (before["dashpilotd"] ?? 0)) / hours
    let gpxlogger = ((after["gpxlogger"] ?? 0) - (before["gpxlogger"] ?? 0)) / hours
    report.record("e2e.parked_cpu_seconds_per_hour", (daemon * 100).rounded() / 100, "s")
    report.record("e2e.parked_gpxlogger_cpu_seconds_per_hour", (gpxlogger * 100).rounded() / 100, "s")
    report.record(
      "e2e.parked_dashpilotd_bytes_written_per_hour", (Double(written) / hours / 1e6 * 100).rounded() / 100, "MB")
  }
}
