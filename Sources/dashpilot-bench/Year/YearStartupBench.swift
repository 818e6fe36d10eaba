// Start-up on a growing history: from the launch of `dashpilotd` to READY=1 (what systemd
// waits for, within the unit's TimeoutStartSec=30s) and to its first answered status, at
// an empty file, three months and a year of 1 Hz shifts, each from a cold page cache; and
// the daemon's CPU time to READY=1, which the machine's other work does not inflate.
import Foundation
import TestSupport

enum YearStartupBench {
  static func run(_ report: inout BenchReport, _ histories: YearHistories) throws {
    let directory = try TestPaths.temporaryDirectory("year-bench-startup")
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = [
      try histories.history(YearHistories.empty, label: "empty"),
      try histories.history(YearHistories.threeMonths, label: "3_months"),
      try histories.history(YearHistories.year, label: "1_year"),
    ]
    for history in files {
      let path = try YearHistories.workingCopy(of: history, in: directory)
      let started = try YearBench.start(database: path)
      defer { started.daemon.stop() }
      report.record("year.startup_to_ready_\(history.label)", started.readyMilliseconds, "ms")
      report.record("year.startup_to_status_\(history.label)", started.statusMilliseconds, "ms")
      report.record("year.startup_cpu_to_ready_\(history.label)", started.readyCPUSeconds, "s")
    }
  }
}
