import Capture
import DashPilotCore
import Foundation
import GPSD
import Store
import TestSupport

/// The daemon's capture path without the daemon: CaptureService writing through
/// StoreSampleSink and a SampleBatch into a real SQLite file, fed gpsd JSON lines or the
/// events of a real GPSDSource. `batchClock` is what the sink's "now" reads (the daemon's
/// wall clock), which a test may step.
final class StoreCapture {
  let directory: URL
  let path: String
  let store: SampleStore
  let shiftID: Int64
  let sink: StoreSampleSink
  var service: CaptureService
  var batchClock: Date
  private(set) var events: [CaptureEvent] = []

  init(label: String, batchClock: Date = Date(timeIntervalSince1970: 1_764_000_000)) throws {
    directory = try TestPaths.temporaryDirectory(label)
    path = directory.appendingPathComponent("dashpilot.sqlite").path
    store = try SampleStore(path: path)
    shiftID = try store.startShift(at: Date(timeIntervalSince1970: 0)).id
    self.batchClock = batchClock
    var clock: () -> Date = { Date() }
    let batch = SampleBatch(store: store, shiftID: shiftID)
    sink = StoreSampleSink(batch: batch, now: { clock() })
    var counter = 0
    service = CaptureService(sink: sink) {
      counter += 1
      return CaptureSessionID("session-\(counter)")
    }
    clock = { [unowned self] in self.batchClock }
    try service.startCapture()
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// One line of gpsd JSON, arriving at `arrival` (monotonic seconds). Returns whether the
  /// decoder made a report of it.
  @discardableResult
  func feed(line: String, arrival: Double, wallClock: Date? = nil) -> Bool {
    guard let report = GPSDJSONDecoder.decode(line) else { return false }
    events += service.receive(report, arrival: arrival, synchronisedWallClock: wallClock)
    flushIfDue()
    return true
  }

  func handle(_ event: GPSDSourceEvent, wallClock: Date?) {
    events += service.handle(event, synchronisedWallClock: wallClock)
    flushIfDue()
  }

  /// The daemon's timer.
  func flushIfDue() {
    do {
      try sink.flushIfDue()
    } catch {
      events += service.saveFailed(reason: error.description)
    }
  }

  /// Stops capture and writes what is pending; returns what the shift holds.
  func finish() throws -> [RouteSample] {
    events += service.stopCapture(reason: "test done")
    try sink.flush()
    return try store.samples(ofShift: shiftID)
  }

  var rejections: [SampleRejection: Int] { service.statistics.rejected }
}
