// Store benchmarks: ingest rate, the cost of the live figure's update at three shift
// lengths (it must stay flat), one-pass measurement against a plain scan, bytes per sample.
import DashPilotCore
import Foundation
import Store
import TestSupport

func runStoreBenchmarks(_ report: inout BenchReport) {
  do {
    try StoreBench.run(&report)
  } catch {
    FileHandle.standardError.write(Data("store benchmarks failed: \(error)\n".utf8))
  }
}

enum StoreBench {
  static func run(_ report: inout BenchReport) throws {
    let directory = try TestPaths.temporaryDirectory("store-bench")
    defer { try? FileManager.default.removeItem(at: directory) }

    try ingest(&report, directory: directory)

    var updateMicroseconds: [Int: Double] = [:]
    for (count, label) in [(1_000, "1k"), (100_000, "100k"), (1_000_000, "1m")] {
      let path = directory.appendingPathComponent("live-\(label).sqlite").path
      let store = try SampleStore(path: path)
      let shift = try store.startShift(at: Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime))
      // Setup, not measured: the whole shift in one transaction.
      try store.append((0..<count).map(sample), toShift: shift.id)
      updateMicroseconds[count] = try liveUpdate(&report, store: store, shiftID: shift.id, from: count, label: label)
      if count == 1_000_000 {
        try onePassAgainstScan(&report, store: store, shiftID: shift.id, label: label)
        _ = try store.database.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
        let pages = try store.database.scalarInt64("PRAGMA page_count") ?? 0
        let pageSize = try store.database.scalarInt64("PRAGMA page_size") ?? 0
        report.record("store_bytes_per_sample", Double(pages * pageSize) / Double(count + 1_000), "bytes")
      }
    }
    if let small = updateMicroseconds[1_000], let large = updateMicroseconds[1_000_000], small > 0 {
      report.record("store_live_update_ratio_1m_1k", (large / small * 100).rounded() / 100, "ratio")
    }
  }

  /// Sample k of a long shift: a new capture session every 10,000 samples.
  static func sample(_ k: Int) -> RouteSample {
    StoreIngestPattern.sample(k, session: CaptureSessionID("bench-\(k / 10_000)"))
  }

  /// Samples a second through `SampleBatch`, written in batches of 32 with synchronous=FULL
  /// (an fsync per commit), and the cost of one commit of a single sample.
  static func ingest(_ report: inout BenchReport, directory: URL) throws {
    let store = try SampleStore(path: directory.appendingPathComponent("ingest.sqlite").path)
    let shift = try store.startShift(at: Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime))
    let batch = SampleBatch(
      store: store, shiftID: shift.id, policy: SampleBatchPolicy(maximumPendingCount: 32))
    let count = 32_000
    let samples = (0..<count).map(sample)
    let received = Date()
    let seconds = try report.seconds {
      for sample in samples { try batch.append(sample, at: received) }
      try batch.flush()
    }
    report.record("store_ingest_rate_batch32", (Double(count) / seconds).rounded(), "samples/s")

    var commits: [Double] = []
    for k in count..<count + 300 {
      let one = sample(k)
      commits.append(try report.seconds { try store.append([one], toShift: shift.id) })
    }
    report.record("store_commit_one_sample_median", median(commits) * 1e6, "us")
    _ = try store.database.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
    let pages = try store.database.scalarInt64("PRAGMA page_count") ?? 0
    let pageSize = try store.database.scalarInt64("PRAGMA page_size") ?? 0
    report.record("store_bytes_per_sample_batched", Double(pages * pageSize) / Double(count + 300), "bytes")
  }

  /// One batch of five arrives, then the status query: the median cost of the query.
  static func liveUpdate(
    _ report: inout BenchReport, store: SampleStore, shiftID: Int64, from count: Int, label: String
  ) throws -> Double {
    let service = ActiveShiftRouteService(store: store)
    let first = try report.seconds { _ = try service.status() }
    report.record("store_live_first_status_\(label)", first * 1e3, "ms")
    var timings: [Double] = []
    var next = count
    for _ in 0..<200 {
      try store.append((next..<next + 5).map(sample), toShift: shiftID)
      next += 5
      timings.append(try report.seconds { _ = try service.status() })
    }
    guard try service.status()?.rowsMeasured == next else {
      throw StoreError.invalidSetting("the live measurement did not read every row")
    }
    let microseconds = median(timings) * 1e6
    report.record("store_live_update_\(label)", (microseconds * 10).rounded() / 10, "us")
    return microseconds
  }

  /// The shift's figure measured in one pass from its rows, against reading the same rows
  /// with a plain SELECT that only touches each column: the price of decoding and measuring.
  static func onePassAgainstScan(
    _ report: inout BenchReport, store: SampleStore, shiftID: Int64, label: String
  ) throws {
    var measure: [Double] = []
    var scan: [Double] = []
    var checksum: Int64 = 0
    for _ in 0..<3 {
      measure.append(try report.seconds { _ = try store.recordedDistance(ofShift: shiftID) })
      scan.append(try report.seconds {
        try store.database.withStatement(
          """
          SELECT id, capture_session, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm,
            speed_cm_s, course_cdeg FROM samples WHERE shift_id = ? AND id > 0 ORDER BY id
          """
        ) { (s) throws(StoreError) in
          try s.bind(shiftID, at: 1)
          while try s.step() {
            for column in Int32(0)..<8 { checksum &+= s.int64(column) }
          }
        }
      })
    }
    // Where the one pass spends its time: reading the rows into samples, then the
    // calculator (filter, sort, walk) over them.
    var rows: [RouteSample] = []
    let read = try report.seconds { rows = try store.samples(ofShift: shiftID) }
    let calculate = report.seconds { _ = RouteMileageCalculator().distance(of: rows) }
    report.record("store_read_samples_\(label)", read * 1e3, "ms")
    report.record("store_calculator_\(label)", calculate * 1e3, "ms")
    let measured = measure.min() ?? 0
    let scanned = scan.min() ?? 0
    report.record("store_one_pass_\(label)", measured * 1e3, "ms")
    report.record("store_select_scan_\(label)", scanned * 1e3, "ms")
    if scanned > 0 { report.record("store_one_pass_vs_scan_\(label)", (measured / scanned * 100).rounded() / 100, "ratio") }
    if checksum == 42 { print("") }  // keeps the scan from being optimised away
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
  }
}
