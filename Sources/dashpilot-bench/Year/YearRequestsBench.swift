// Requests on a year of 1 Hz shifts, from a daemon started on it: `dashpilotctl shifts` as a
// user types it, its first call (the file's pages dropped from the cache first) and its
// second; then the heaviest requests with status asked every 20 ms beside each
// (StatusProbe): the whole year listed (`shifts --limit` the year's shift count) and the
// year's longest shift exported as GPX, each from a cold page cache. Each answer is checked
// (250 shifts listed, every row exported) so a figure never measures a refusal. Times are
// the client's, launch to exit (dashpilotctl writes the GPX itself); `_daemon_cpu` is the
// daemon's CPU time meanwhile (status answers included), which other work on the machine
// does not inflate.
import Foundation
import TestSupport

enum YearRequestsBench {
  static func run(_ report: inout BenchReport, _ histories: YearHistories) throws {
    let directory = try TestPaths.temporaryDirectory("year-bench-requests")
    defer { try? FileManager.default.removeItem(at: directory) }
    let year = try histories.history(YearHistories.year, label: "1_year")
    let path = try YearHistories.workingCopy(of: year, in: directory)
    let daemon = try YearBench.start(database: path).daemon
    defer { daemon.stop() }

    ColdCache.drop(database: path)
    let first = try YearBench.control(daemon, ["shifts"])
    let second = try YearBench.control(daemon, ["shifts"])
    report.record("year.shifts_first_call_1_year", (first.seconds * 1e3).rounded(), "ms")
    report.record("year.shifts_second_call_1_year", (second.seconds * 1e3).rounded(), "ms")
    report.record("year.shifts_first_call_1_year_daemon_cpu", first.daemonCPUSeconds, "s")
    report.record("year.shifts_second_call_1_year_daemon_cpu", second.daemonCPUSeconds, "s")

    let shifts = year.summary.counts.shifts
    ColdCache.drop(database: path)
    let listing = try YearBench.whileAskingStatus(daemon, ["shifts", "--limit", "\(shifts)", "--json"])
    let listed =
      (try? JSONSerialization.jsonObject(with: Data(listing.request.outcome.standardOutput.utf8)) as? [String: Any])?[
        "shifts"] as? [Any]
    guard listed?.count == shifts else {
      throw YearBench.Failure(description: "shifts --limit \(shifts) listed \(listed?.count ?? 0) shifts")
    }
    report.record("year.shifts_whole_year_1_year", (listing.request.seconds * 1e3).rounded(), "ms")
    report.record("year.shifts_whole_year_1_year_daemon_cpu", listing.request.daemonCPUSeconds, "s")
    report.record("year.status_p99_during_shifts_whole_year", listing.statusP99Milliseconds, "ms")
    report.record("year.status_max_during_shifts_whole_year", listing.statusMaxMilliseconds, "ms")

    guard let longest = year.summary.counts.longestShiftID else { throw YearBench.Failure(description: "no shift") }
    let gpx = directory.appendingPathComponent("longest.gpx").path
    ColdCache.drop(database: path)
    let export = try YearBench.whileAskingStatus(
      daemon, ["export", "\(longest)", "--format", "gpx", "--output", gpx])
    try YearExportBench.checkPoints(gpx, expected: year.summary.counts.longestShiftSamples)
    report.record("year.export_longest_shift_1_year", (export.request.seconds * 1e3).rounded(), "ms")
    report.record("year.export_longest_shift_1_year_daemon_cpu", export.request.daemonCPUSeconds, "s")
    report.record("year.status_p99_during_export_1_year", export.statusP99Milliseconds, "ms")
    report.record("year.status_max_during_export_1_year", export.statusMaxMilliseconds, "ms")
  }
}
