// Retention benchmarks: how fast whole completed shifts are deleted from a large file, a
// step at a time as the daemon does it (2,000 rows a transaction, each synced), how long one
// step holds the loop, and how much the file grows when as much is recorded again.
import DashPilotCore
import Foundation
import Store
import TestSupport

func runRetentionBenchmarks(_ report: inout BenchReport) {
  do {
    try RetentionBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("retention benchmarks failed: \(error)\n".utf8))
  }
}

enum RetentionBench {
  /// An 8-hour shift at 1 Hz, the unit shifts/s is counted in.
  static let rowsPerShift = 28_800
  static let shifts = 48
  static let deleted = 24
  /// The daemon's step (`RetentionComponent.rowsPerStep`) and its pause rule: after a step
  /// of d seconds the next waits twice d.
  static let rowsPerStep = 2_000
  static let pause = 2.0

  static func run(_ report: inout BenchReport) throws {
    let directory = try TestPaths.temporaryDirectory("retention-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("retention.sqlite").path
    // Setup, not measured: the history written without syncs, then reopened as the daemon
    // opens it (every commit synced).
    var clock = StoreIngestPattern.firstFixTime
    do {
      let setup = try SampleStore(path: path, durability: .disposable)
      for index in 0..<shifts { try record(setup, index: index, clock: &clock) }
    }
    let store = try SampleStore(path: path)
    try store.checkpoint()
    let pagesBefore = try pages(store)

    var steps: [Double] = []
    var rows = 0
    for id in Int64(1)...Int64(deleted) {
      var deletion = try store.beginDeleting(shift: id)
      while !deletion.isFinished {
        let seconds = try report.seconds { try store.continueDeleting(&deletion, rowLimit: rowsPerStep) }
        steps.append(seconds)
      }
      rows += deletion.samplesDeleted
    }
    let busy = steps.reduce(0, +)
    report.record("store.retention_rows_per_second", (Double(rows) / busy).rounded(), "rows/s")
    report.record("store.retention_shifts_per_second", (Double(deleted) / busy * 100).rounded() / 100, "shifts/s")
    let sorted = steps.sorted()
    report.record("store.retention_step_ms_p50", (sorted[sorted.count / 2] * 1e4).rounded() / 10, "ms")
    report.record("store.retention_step_ms_p99", (sorted[sorted.count * 99 / 100] * 1e4).rounded() / 10, "ms")
    report.record("store.retention_step_ms_max", ((sorted.last ?? 0) * 1e4).rounded() / 10, "ms")
    // Paced as the daemon paces it, the loop free two thirds of the time.
    report.record(
      "store.retention_paced_shifts_per_hour", (Double(deleted) / (busy * (1 + pause)) * 3_600).rounded(), "shifts/h")

    // As much recorded again: the freed pages are reused.
    for index in shifts..<(shifts + deleted) { try record(store, index: index, clock: &clock) }
    try store.checkpoint()
    let growth = Double(try pages(store) - pagesBefore) / Double(pagesBefore) * 100
    report.record("store.retention_file_growth_after_reuse", (growth * 100).rounded() / 100, "percent")
  }

  /// One completed shift of `rowsPerShift` samples, one a second, in a session of its own.
  static func record(_ store: SampleStore, index: Int, clock: inout TimeInterval) throws {
    let session = CaptureSessionID("bench-\(index)")
    let shift = try store.startShift(at: Date(timeIntervalSince1970: clock))
    let first = Int((clock - StoreIngestPattern.firstFixTime).rounded())
    try store.append(
      (0..<rowsPerShift).map { StoreIngestPattern.sample(first + $0, session: session) }, toShift: shift.id)
    clock += Double(rowsPerShift)
    try store.endCaptureSession(session, at: Date(timeIntervalSince1970: clock), reason: "stopped")
    _ = try store.endShift(shift.id, at: Date(timeIntervalSince1970: clock))
    clock += 16 * 3_600
  }

  static func pages(_ store: SampleStore) throws -> Int64 {
    try store.read { (transaction) throws(StoreError) -> Int64 in
      var count: Int64 = 0
      try transaction.query("PRAGMA page_count") { row in count = row.int64(0) }
      return count
    }
  }
}
