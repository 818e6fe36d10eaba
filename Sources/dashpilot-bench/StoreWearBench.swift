// What recording costs an SD card: the bytes `dashpilotd` writes to storage per hour of
// 1 Hz driving (/proc/PID/io `write_bytes`: every page it dirtied, the log, the
// checkpoints into the database and the shared-memory index alike), fed in real time
// through a real gpsd, since a commit is due by the wall clock. One daemon per
// `[Store] CommitInterval=` on the same gpsd, and gpxlogger beside them (a GPX file of
// every fix) as the peer. Long enough for the log to be checkpointed into the file several
// times, so what a checkpoint writes is in the figure.
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

func runStoreWearBenchmarks(_ report: inout BenchReport) {
  do {
    try StoreWearBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("store wear benchmark failed: \(error)\n".utf8))
    print("bench store.wear_error 1 error")
  }
}

enum StoreWearBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  /// Seconds of 1 Hz driving fed (`DASHPILOT_WEAR_SECONDS` overrides, at least 120).
  static var fixes: Int {
    max(120, Int(ProcessInfo.processInfo.environment["DASHPILOT_WEAR_SECONDS"] ?? "") ?? 300)
  }
  /// The commit intervals measured, seconds; the first is the default.
  static let intervals = [1, 5, 10]

  static func run(_ report: inout BenchReport) throws {
    let fixes = self.fixes
    let receiver = try GPSDFullSpeedReceiver()
    defer { receiver.stop() }
    let server = "127.0.0.1:\(receiver.port)"
    var daemons: [(Int, DaemonUnderTest)] = []
    defer { for (_, daemon) in daemons { daemon.stop() } }
    for interval in intervals {
      let config = interval == intervals[0] ? nil : "[Store]\nCommitInterval=\(interval)\n"
      let daemon = try DaemonUnderTest(config: config, arguments: ["--gpsd", server])
      daemons.append((interval, daemon))
      try daemon.waitUntilReady(timeout: 30)
      guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
        throw Failure(description: "dashpilotd never connected to gpsd: \(daemon.log)")
      }
      _ = try daemon.controlJSON(["shift", "start"])
    }
    let directory = try TestPaths.temporaryDirectory("wear-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    let gpxPath = directory.appendingPathComponent("gpxlogger.gpx").path
    let gpxlogger = try GPSDChildProcess(
      executable: "/usr/bin/gpxlogger", arguments: ["-e", "sockets", "-f", gpxPath, server],
      outputPath: gpxPath + ".log")
    defer { gpxlogger.killGroup() }
    usleep(2_000_000)

    let pids = daemons.map { ($0.0, $0.1.pid) } + [(0, gpxlogger.pid)]
    let before = pids.map { ProcessFigures.writeBytes(of: $0.1) ?? 0 }
    _ = try BenchDrive.feed(receiver, fixes: fixes, hertz: 1) { BenchDrive.driving($0, hertz: 1) }
    // The last fix is judged on the tick and committed within the longest interval.
    usleep(useconds_t((Double(intervals.max() ?? 1) + 2.5) * 1e6))
    let after = pids.map { ProcessFigures.writeBytes(of: $0.1) ?? 0 }
    let hours = Double(fixes) / 3600
    report.record("store.wear_fixes_fed", Double(fixes), "fixes")
    for (index, (interval, _)) in pids.enumerated() {
      let megabytes = Double(after[index] - before[index]) / hours / 1e6
      let name =
        interval == 0
        ? "store.gpxlogger_bytes_written_per_hour_1hz"
        : interval == intervals[0]
          ? "store.bytes_written_per_hour_1hz" : "store.bytes_written_per_hour_1hz_commit_\(interval)s"
      report.record(name, (megabytes * 100).rounded() / 100, "MB")
    }
    for (interval, daemon) in daemons {
      let status = try daemon.controlJSON(["status"])
      let stored = status.object("shift.distance")?["usable_positions"] as? Int ?? -1
      let suffix = interval == intervals[0] ? "" : "_commit_\(interval)s"
      report.record("store.wear_stored_samples\(suffix)", Double(stored), "samples")
    }
  }
}
