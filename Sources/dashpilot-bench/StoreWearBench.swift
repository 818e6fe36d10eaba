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
  /// Stands for the daemon recording at the default interval into a file 0.1.0 made.
  static let releaseFileDaemon = -1

  static func run(_ report: inout BenchReport) throws {
    let fixes = self.fixes
    let receiver = try GPSDFullSpeedReceiver()
    defer { receiver.stop() }
    let server = "127.0.0.1:\(receiver.port)"
    var daemons: [(Int, DaemonUnderTest)] = []
    defer { for (_, daemon) in daemons { daemon.stop() } }
    let directory = try TestPaths.temporaryDirectory("wear-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A file 0.1.0 wrote (4 KiB pages, AUTOINCREMENT), as a box upgraded in place records
    // into it: its open shift ended, a new one begun.
    let releaseFile = directory.appendingPathComponent("dashpilot-0.1.0.sqlite")
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("databases/dashpilot-0.1.0.sqlite"), to: releaseFile)
    for interval in intervals + [Self.releaseFileDaemon] {
      let config =
        interval == intervals[0] || interval == Self.releaseFileDaemon ? nil : "[Store]\nCommitInterval=\(interval)\n"
      let database = interval == Self.releaseFileDaemon ? ["--database", releaseFile.path] : []
      let daemon = try DaemonUnderTest(config: config, arguments: ["--gpsd", server] + database)
      daemons.append((interval, daemon))
      try daemon.waitUntilReady(timeout: 30)
      guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
        throw Failure(description: "dashpilotd never connected to gpsd: \(daemon.log)")
      }
      if interval == Self.releaseFileDaemon { _ = try daemon.controlJSON(["shift", "end"]) }
      let started = try daemon.controlJSON(["shift", "start"])
      guard started["id"] is Int else { throw Failure(description: "no shift started: \(started)") }
    }
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
        switch interval {
        case 0: "store.gpxlogger_bytes_written_per_hour_1hz"
        case intervals[0]: "store.bytes_written_per_hour_1hz"
        case Self.releaseFileDaemon: "store.bytes_written_per_hour_1hz_file_from_0_1_0"
        default: "store.bytes_written_per_hour_1hz_commit_\(interval)s"
        }
      report.record(name, (megabytes * 100).rounded() / 100, "MB")
    }
    for (interval, daemon) in daemons {
      let status = try daemon.controlJSON(["status"])
      let stored = status.object("shift.distance")?["usable_positions"] as? Int ?? -1
      let suffix =
        switch interval {
        case intervals[0]: ""
        case Self.releaseFileDaemon: "_file_from_0_1_0"
        default: "_commit_\(interval)s"
        }
      report.record("store.wear_stored_samples\(suffix)", Double(stored), "samples")
    }
  }
}
