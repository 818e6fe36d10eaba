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

    // Three shifts of different lengths, each in its own file, measured in alternation so
    // that whatever else the machine is doing weighs on all three alike.
    let sizes = [(1_000, "1k"), (100_000, "100k"), (1_000_000, "1m")]
    var shifts: [LiveShift] = []
    for (count, label) in sizes {
      let path = directory.appendingPathComponent("live-\(label).sqlite").path
      let store = try SampleStore(path: path)
      let shift = try store.startShift(at: Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime))
      // Setup, not measured: the whole shift in one transaction.
      try store.append((0..<count).map(sample), toShift: shift.id)
      let service = ActiveShiftRouteService(store: store)
      let first = try report.seconds { _ = try service.status() }
      report.record("store_live_first_status_\(label)", first * 1e3, "ms")
      shifts.append(LiveShift(label: label, path: path, store: store, service: service, shiftID: shift.id, next: count))
    }
    for _ in 0..<300 {
      for live in shifts { try live.update() }
    }
    var updateMicroseconds: [String: Double] = [:]
    for live in shifts {
      guard try live.service.status()?.rowsMeasured == live.next else {
        throw StoreError.invalidSetting("the live measurement of \(live.label) did not read every row")
      }
      let microseconds = median(live.timings) * 1e6
      updateMicroseconds[live.label] = microseconds
      report.record("store_live_update_\(live.label)", (microseconds * 10).rounded() / 10, "us")
      let withCommit = median(live.batchThenStatusTimings) * 1e6
      report.record("store_live_batch_then_status_\(live.label)", withCommit.rounded(), "us")
    }
    if let small = updateMicroseconds["1k"], let large = updateMicroseconds["1m"], small > 0 {
      report.record("store_live_update_ratio_1m_1k", (large / small * 100).rounded() / 100, "ratio")
    }

    guard let largest = shifts.last else { return }
    let rowCount = largest.next
    try onePassAgainstScan(&report, store: largest.store, shiftID: largest.shiftID, label: largest.label)
    try largest.store.checkpoint()
    report.record("store_bytes_per_sample", Double(try fileBytes(largest.store)) / Double(rowCount), "bytes")
    let path = largest.path
    shifts.removeAll()  // closes the files
    // What the daemon pays on start: header, settings, migrations (nothing that grows with
    // the file), and the whole-file check it runs after start-up, on a reader.
    let open = try report.seconds { _ = try SampleStore(path: path) }
    report.record("store_open_1m", open * 1e3, "ms")
    let check = try report.seconds { _ = try SampleStore(readingFrom: path).quickCheck() }
    report.record("store_quick_check_1m", check * 1e3, "ms")
  }

  /// One shift being extended: a batch of five arrives, then the status query is timed.
  final class LiveShift {
    let label: String
    let path: String
    let store: SampleStore
    let service: ActiveShiftRouteService
    let shiftID: Int64
    var next: Int
    /// The status query alone, and the commit of the batch followed by the query.
    var timings: [Double] = []
    var batchThenStatusTimings: [Double] = []

    init(label: String, path: String, store: SampleStore, service: ActiveShiftRouteService, shiftID: Int64, next: Int) {
      self.label = label
      self.path = path
      self.store = store
      self.service = service
      self.shiftID = shiftID
      self.next = next
    }

    func update() throws {
      let batch = (next..<next + 5).map(StoreBench.sample)
      let arrival = DispatchTime.now().uptimeNanoseconds
      try store.append(batch, toShift: shiftID)
      next += 5
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try service.status()
      let end = DispatchTime.now().uptimeNanoseconds
      timings.append(Double(end - start) / 1e9)
      batchThenStatusTimings.append(Double(end - arrival) / 1e9)
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
    try store.checkpoint()
    report.record("store_bytes_per_sample_batched", Double(try fileBytes(store)) / Double(count + 300), "bytes")
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
      scan.append(
        try report.seconds {
          try store.read { (transaction) throws(StoreError) in
            try transaction.query(
              """
              SELECT id, capture_session, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm,
                speed_cm_s, course_cdeg FROM samples WHERE shift_id = ? AND id > 0 ORDER BY id
              """, [.integer(shiftID)]
            ) { row in
              for column in Int32(0)..<8 { checksum &+= row.int64(column) }
            }
          }
        })
    }
    // Where the one pass spends its time, split in two: reading the rows into an array of
    // samples, then the calculator over the array (the walk; a route in measurement order,
    // as these rows are, is not sorted). The one pass itself walks the rows as they are read.
    var rows: [RouteSample] = []
    let read = try report.seconds { rows = try store.samples(ofShift: shiftID) }
    let calculate = report.seconds { _ = RouteMileageCalculator().distance(of: rows) }
    report.record("store_read_samples_\(label)", read * 1e3, "ms")
    report.record("store_calculator_\(label)", calculate * 1e3, "ms")
    let measured = measure.min() ?? 0
    let scanned = scan.min() ?? 0
    report.record("store_one_pass_\(label)", measured * 1e3, "ms")
    report.record("store_select_scan_\(label)", scanned * 1e3, "ms")
    if scanned > 0 {
      // Measured on the largest shift only (1M samples): one figure, named without a size.
      report.record("store.one_pass_ratio_to_scan", (measured / scanned * 100).rounded() / 100, "ratio")
    }
    if checksum == 42 { print("") }  // keeps the scan from being optimised away
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
  }
}

extension StoreBench {
  /// The file's size in pages, once the log is checkpointed into it.
  static func fileBytes(_ store: SampleStore) throws -> Int64 {
    try store.read { (transaction) throws(StoreError) in
      var bytes: Int64 = 1
      for pragma in ["PRAGMA page_count", "PRAGMA page_size"] {
        try transaction.query(pragma) { row in bytes *= row.int64(0) }
      }
      return bytes
    }
  }
}
