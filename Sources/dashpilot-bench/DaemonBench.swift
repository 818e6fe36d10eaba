// Daemon benchmarks with the real `dashpilotd` process: start-up time to READY with a
// database holding a 1,000,000-sample open shift, and the daemon's resident memory in
// steady state with that shift open and a route loaded.
import DashPilotCore
import Foundation
import Store
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

func runDaemonBenchmarks(_ report: inout BenchReport) {
  do {
    try DaemonBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("daemon benchmarks failed: \(error)\n".utf8))
  }
}

enum DaemonBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static func run(_ report: inout BenchReport) throws {
    let daemonBinary = try DaemonBinaries.url("dashpilotd")
    FileHandle.standardError.write(Data("daemon benchmarks run \(daemonBinary.path)\n".utf8))
    // The empty shift is the baseline: what the 1,000,000 rows add is the difference.
    try measure(&report, sampleCount: 0, label: "empty_shift")
    try measure(&report, sampleCount: 1_000_000, label: "1m_samples")
  }

  static func measure(_ report: inout BenchReport, sampleCount: Int, label: String) throws {
    let directory = try TestPaths.temporaryDirectory("daemon-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    do {
      // Setup, not measured: the open shift, written in one transaction and checkpointed.
      let store = try SampleStore(path: database)
      let shift = try store.startShift(at: Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime))
      if sampleCount > 0 {
        try store.append(
          (0..<sampleCount).map { StoreIngestPattern.sample($0, session: CaptureSessionID("bench-\($0 / 10_000)")) },
          toShift: shift.id)
      }
      try store.checkpoint()
    }

    // Start-up: from the launch until systemd would hear READY=1 (database open and
    // checked, socket bound), then until the socket answers `status` (the first answer
    // measures the open shift's rows once).
    let launched = DispatchTime.now().uptimeNanoseconds
    let daemon = try DaemonUnderTest(arguments: ["--database", database])
    defer { daemon.stop() }
    guard daemon.notifications.wait(for: "READY=1", timeout: 120) != nil else {
      throw Failure(description: "dashpilotd never sent READY=1: \(daemon.log)")
    }
    let ready = DispatchTime.now().uptimeNanoseconds
    report.record("daemon_startup_to_ready_\(label)", (Double(ready - launched) / 1e6).rounded(), "ms")
    var answered: UInt64?
    let deadline = Date(timeIntervalSinceNow: 120)
    while answered == nil && Date() < deadline {
      if let client = try? RawSocketClient(path: daemon.socketPath),
        let answer = client.ask(#"{"v":1,"id":1,"cmd":"status"}"#, timeout: 30), answer["result"] != nil
      {
        answered = DispatchTime.now().uptimeNanoseconds
      } else {
        usleep(2_000)
      }
    }
    guard let answered else { throw Failure(description: "dashpilotd never answered status: \(daemon.log)") }
    report.record("daemon_startup_to_status_\(label)", (Double(answered - launched) / 1e6).rounded(), "ms")
    let status = try daemon.controlJSON(["status"])
    guard status.object("shift.distance")?["usable_positions"] as? Int == sampleCount else {
      throw Failure(description: "the daemon does not see the \(sampleCount)-sample shift: \(status)")
    }

    let route = TestPaths.fixtures.appendingPathComponent("routes/short-drive.gpx").path
    let loaded = try daemon.control(["route", "load", route])
    guard loaded.status == 0 else { throw Failure(description: "route load failed: \(loaded.standardError)") }
    // Steady state: a few status rounds and quiet time, then the resident set.
    for _ in 0..<10 {
      _ = try daemon.controlJSON(["status"])
      usleep(300_000)
    }
    guard let kilobytes = statusKilobytes("VmRSS", of: daemon.pid),
      let anonymous = statusKilobytes("RssAnon", of: daemon.pid)
    else {
      throw Failure(description: "no VmRSS for pid \(daemon.pid)")
    }
    report.record("daemon_rss_\(label)_route_loaded", (Double(kilobytes) / 1024 * 10).rounded() / 10, "MiB")
    // Most of VmRSS is shared library text (Swift runtime, Foundation, ICU) that every
    // Swift process on the box maps alike; the anonymous part is what the daemon holds.
    report.record("daemon_rss_anon_\(label)_route_loaded", (Double(anonymous) / 1024 * 10).rounded() / 10, "MiB")
  }

  /// A kB figure of a process's /proc/PID/status ("VmRSS", "RssAnon").
  static func statusKilobytes(_ field: String, of pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("\(field):") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
  }
}
