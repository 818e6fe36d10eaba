// The biggest single answer a box gives: one 10 h shift of a 10 Hz receiver (every fix
// kept while driving) exported as GPX through the real dashpilotctl, from a cold page
// cache: how long it takes, the daemon's peak resident memory (VmHWM) before and after,
// and status asked every 20 ms meanwhile.
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

enum YearExportBench {
  static func run(_ report: inout BenchReport, _ histories: YearHistories) throws {
    let directory = try TestPaths.temporaryDirectory("year-bench-export")
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = try histories.history(YearHistories.tenHoursTenHz, label: "10h_10hz")
    guard let shift = history.summary.counts.longestShiftID else { throw YearBench.Failure(description: "no shift") }
    let path = try YearHistories.workingCopy(of: history, in: directory)
    let daemon = try YearBench.start(database: path).daemon
    defer { daemon.stop() }
    let before = YearBench.memory("VmHWM", of: daemon.pid)

    let gpx = directory.appendingPathComponent("shift.gpx").path
    ColdCache.drop(database: path)
    let export = try YearBench.whileAskingStatus(daemon, ["export", "\(shift)", "--format", "gpx", "--output", gpx])
    try checkPoints(gpx, expected: history.summary.counts.samples)
    report.record("year.export_10h_10hz", (export.request.seconds * 100).rounded() / 100, "s")
    report.record("year.export_10h_10hz_daemon_cpu", export.request.daemonCPUSeconds, "s")
    if let before { report.record("year.daemon_peak_rss_before_export_10h_10hz", before, "MiB") }
    if let after = YearBench.memory("VmHWM", of: daemon.pid) {
      report.record("year.daemon_peak_rss_export_10h_10hz", after, "MiB")
    }
    report.record("year.status_p99_during_export_10h_10hz", export.statusP99Milliseconds, "ms")
    report.record("year.status_max_during_export_10h_10hz", export.statusMaxMilliseconds, "ms")
  }

  /// Throws unless the GPX file at `path` holds exactly `expected` track points.
  static func checkPoints(_ path: String, expected: Int) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    let needle = Array("<trkpt ".utf8)
    var count = 0
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      guard var cursor = bytes.baseAddress else { return }
      let end = cursor + bytes.count
      while end - cursor >= needle.count, let found = memchr(cursor, Int32(needle[0]), end - cursor) {
        let at = UnsafeRawPointer(found)
        guard end - at >= needle.count else { break }
        if memcmp(at, needle, needle.count) == 0 { count += 1 }
        cursor = at + 1
      }
    }
    guard count == expected else {
      throw YearBench.Failure(description: "the export of \(path) holds \(count) track points, not \(expected)")
    }
  }
}
