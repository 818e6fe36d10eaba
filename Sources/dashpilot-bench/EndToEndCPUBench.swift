// End to end through a real gpsd: an hour of 10 Hz driving written to a receiver's
// terminal as fast as gpsd reads it, with `dashpilotd` (recording a shift), `gpxlogger`
// and `gpspipe -w` all connected to that gpsd in the same run. What each process spent
// (CPU over every thread, `ProcessFigures.cpuSeconds`) is the cost of that hour; the ratios compare dashpilotd
// with the two clients gpsd ships, measured on the same fixes at the same moment.
import DashPilotCore
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

func runEndToEndCPUBenchmarks(_ report: inout BenchReport) {
  do {
    try EndToEndCPUBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("end-to-end CPU benchmark failed: \(error)\n".utf8))
    print("bench e2e.error 1 error")
  }
  do {
    try RealtimeCPUBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("real-time CPU benchmark failed: \(error)\n".utf8))
    print("bench e2e.realtime_error 1 error")
  }
}

enum EndToEndCPUBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static let fixes = 36_000  // an hour at 10 Hz
  /// 100 times real time: the hour passes in 36 s.
  static let fixesPerSecond = 1_000.0

  static func run(_ report: inout BenchReport) throws {
    let directory = try TestPaths.temporaryDirectory("e2e-cpu-bench")
    defer {
      if ProcessInfo.processInfo.environment["E2E_KEEP"] == nil {
        try? FileManager.default.removeItem(at: directory)
      } else {
        FileHandle.standardError.write(Data("kept \(directory.path)\n".utf8))
      }
    }
    let receiver = try GPSDFullSpeedReceiver()
    defer { receiver.stop() }
    let server = "127.0.0.1:\(receiver.port)"

    let daemon = try DaemonUnderTest(arguments: ["--gpsd", server])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw Failure(description: "dashpilotd never connected to gpsd: \(daemon.log)")
    }
    _ = try daemon.controlJSON(["shift", "start"])

    let gpxPath = directory.appendingPathComponent("gpxlogger.gpx").path
    let pipePath = directory.appendingPathComponent("gpspipe.json").path
    let gpxlogger = try GPSDChildProcess(
      executable: "/usr/bin/gpxlogger", arguments: ["-e", "sockets", "-f", gpxPath, server],
      outputPath: gpxPath + ".log")
    defer { gpxlogger.killGroup() }
    let gpspipe = try GPSDChildProcess(executable: "/usr/bin/gpspipe", arguments: ["-w", server], outputPath: pipePath)
    defer { gpspipe.killGroup() }
    // Both are watching once gpsd has answered gpspipe's WATCH; gpxlogger gets a moment more.
    guard ProcessFigures.waitFor(timeout: 20, { ProcessFigures.fileText(pipePath).contains("\"class\":\"WATCH\"") })
    else {
      throw Failure(description: "gpspipe never got gpsd's WATCH answer")
    }
    usleep(1_000_000)

    let processes: [(String, pid_t)] = [
      ("dashpilotd", daemon.pid), ("gpxlogger", gpxlogger.pid), ("gpspipe", gpspipe.pid),
      ("gpsd", receiver.gpsdPID),
    ]
    // The hour as 360 chunks of 100 fixes, paced at `fixesPerSecond`: flat out, gpsd
    // drops reports to any client that falls behind for a moment (it never blocks on a
    // client), and a client that missed fixes would look cheaper than it is.
    let chunks: [String] = stride(from: 0, to: fixes, by: 100).map { first in
      (first..<min(first + 100, fixes)).flatMap(ReliabilityDrive.nmeaSentences).map { $0 + "\r\n" }.joined()
    }
    let before = processes.map { ProcessFigures.cpuSeconds(of: $0.1) }
    let feedStart = DispatchTime.now().uptimeNanoseconds
    for (index, chunk) in chunks.enumerated() {
      try receiver.write(chunk)
      let due = feedStart + UInt64(Double((index + 1) * 100) / fixesPerSecond * 1e9)
      let now = DispatchTime.now().uptimeNanoseconds
      if due > now { usleep(useconds_t((due - now) / 1000)) }
    }

    // The hour has passed through when gpspipe printed the last fix and dashpilotd has
    // gone idle (it may still be catching up); then the CPU is read, before any status
    // request adds its own cost, and the counts after.
    let lastTime = "\"time\":\"\(GPSDTimeText.iso(ReliabilityDrive.time(fixes - 1).timeIntervalSince1970).dropLast(5))"
    guard ProcessFigures.waitFor(timeout: 600, { ProcessFigures.fileText(pipePath).contains(lastTime) }) else {
      throw Failure(description: "gpspipe never printed the last fix (\(lastTime))")
    }
    let feedSeconds = Double(DispatchTime.now().uptimeNanoseconds - feedStart) / 1e9
    var previous = ProcessFigures.cpuSeconds(of: daemon.pid) ?? 0
    while true {
      usleep(1_500_000)
      let now = ProcessFigures.cpuSeconds(of: daemon.pid) ?? 0
      // Idle is its tick alone: well under 10 ms of CPU in 1.5 s.
      if now - previous < 0.01 { break }
      previous = now
    }
    let after = processes.map { ProcessFigures.cpuSeconds(of: $0.1) }
    let status = try daemon.controlJSON(["status"])
    let stored = status.object("shift.distance")?["usable_positions"] as? Int ?? -1
    let capture = status.object("capture") ?? [:]
    let rejected = (capture["rejected"] as? [String: Int] ?? [:]).values.reduce(0, +)
    let judged = (capture["accepted"] as? Int ?? 0) + rejected
    var spent: [String: Double] = [:]
    for (index, process) in processes.enumerated() {
      guard let start = before[index], let end = after[index] else {
        throw Failure(description: "no CPU figure for \(process.0) (pid \(process.1))")
      }
      spent[process.0] = end - start
    }
    let pipeTPVs = ProcessFigures.fileText(pipePath).components(separatedBy: "\"class\":\"TPV\"").count - 1
    let gpxPoints = ProcessFigures.fileText(gpxPath).components(separatedBy: "<trkpt").count - 1

    report.record("e2e.fixes_fed", Double(fixes), "fixes")
    report.record("e2e.feed_seconds", (feedSeconds * 100).rounded() / 100, "s")
    report.record("e2e.fixes_per_second_fed", fixesPerSecond, "fixes/s")
    report.record("e2e.dashpilotd_fixes_judged", Double(judged), "fixes")
    report.record("e2e.dashpilotd_stored_samples", Double(stored), "samples")
    report.record("e2e.gpspipe_tpv_reports", Double(pipeTPVs), "reports")
    report.record("e2e.gpxlogger_track_points", Double(gpxPoints), "points")
    for name in ["dashpilotd", "gpxlogger", "gpspipe", "gpsd"] {
      report.record("e2e.\(name)_cpu_seconds_per_10hz_hour", spent[name] ?? 0, "s")
    }
    let daemonCPU = spent["dashpilotd"] ?? 0
    for name in ["gpxlogger", "gpspipe"] {
      // A client that spent under one clock tick would make the ratio meaningless.
      if let other = spent[name], other >= 0.01 {
        report.record("e2e.dashpilotd_cpu_ratio_to_\(name)", (daemonCPU / other * 100).rounded() / 100, "ratio")
      }
    }
  }
}
