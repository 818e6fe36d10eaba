import ControlProtocol
import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// A shift queued again (`shift.resend`): which messages, in what order, with what in them;
/// and how the shift's delivery record counts them, on a real SQLite file: a whole shift
/// sent again is counted afresh from its first message, a part never.
@Suite struct ShiftResendTests {
  static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  /// `count` samples one second apart from t0 in session cs-1, the last `changed` in cs-2.
  static func samples(_ count: Int, changed: Int = 3) -> [RouteSample] {
    var builder = RouteBuilder(time: t0, session: CaptureSessionID("cs-1"))
    for _ in 1..<count { builder.drive(12) }
    return builder.samples.enumerated().map { index, sample in
      var sample = sample
      if index >= count - changed { sample.captureSessionID = CaptureSessionID("cs-2") }
      return sample
    }
  }

  static func stop(_ arrival: TimeInterval, _ departure: TimeInterval, end: Stop.End = .departed) -> WireStop {
    WireStop(
      Stop(
        arrival: t0 + arrival, departure: t0 + departure, start: .arrived, end: end,
        position: GeoCoordinate(latitude: 51.5, longitude: -0.12), wander: 3, positions: 4))
  }

  static let report = ShiftReport(
    shiftID: 7, startedAt: t0, endedAt: t0 + 3_000,
    distance: RouteDistance(metres: 100, segments: 1, gaps: 0, usablePositions: 2_500, usesInferredContinuity: false),
    summary: "0.1 mi recorded")

  @Test("the whole shift: samples a thousand a message in row order, then the stops that ended, then the shift")
  func whole() {
    let samples = Self.samples(2_500)
    let stops = [Self.stop(100, 400), Self.stop(900, 1_200), Self.stop(2_400, 2_499, end: .ongoing)]
    let resend = ShiftResend(shiftID: 7, samples: samples, stops: stops, report: Self.report)
    #expect(resend.isWhole)
    #expect(
      resend.messages == [
        .samples(CommittedSamples(shiftID: 7, samples: Array(samples[0..<1_000]))),
        .samples(CommittedSamples(shiftID: 7, samples: Array(samples[1_000..<2_000]))),
        .samples(CommittedSamples(shiftID: 7, samples: Array(samples[2_000..<2_500]))),
        .stop(StopReport(shiftID: 7, stop: stops[0])), .stop(StopReport(shiftID: 7, stop: stops[1])),
        .shift(Self.report),
      ])
    #expect((resend.sampleCount, resend.stopCount, resend.includesShift) == (2_500, 2, true))
  }

  @Test(
    "a range: the samples within it (both ends), the stops overlapping it, the shift message; no shift while it runs")
  func range() {
    let samples = Self.samples(2_500)
    let stops = [Self.stop(100, 400), Self.stop(900, 1_200), Self.stop(1_300, 1_400)]
    let resend = ShiftResend(
      shiftID: 7, samples: samples, stops: stops, report: nil, since: Self.t0 + 400, until: Self.t0 + 1_299)
    #expect(!resend.isWhole)
    #expect(
      resend.messages == [
        .samples(CommittedSamples(shiftID: 7, samples: Array(samples[400..<1_300]))),
        .stop(StopReport(shiftID: 7, stop: stops[0])), .stop(StopReport(shiftID: 7, stop: stops[1])),
      ])
    #expect(
      ShiftResend(shiftID: 7, samples: samples, stops: [], report: nil, since: Self.t0 + 5_000).messages.isEmpty)
  }

  @Test("a sample sent again carries exactly the fields it had: only key, sequence and queued_at are new")
  func sameSampleFields() throws {
    let encoder = UplinkEncoder(vehicleID: "van-7")
    let samples = Self.samples(5)
    let first = encoder.encode(.samples(CommittedSamples(shiftID: 7, samples: samples)), sequence: 3, queuedAt: Self.t0)
    let resend = ShiftResend(shiftID: 7, samples: samples, stops: [], report: nil)
    let again = encoder.encode(resend.messages[0], sequence: 90, queuedAt: Self.t0 + 600)
    func fields(_ payload: [UInt8]) throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    }
    let (original, resent) = (try fields(first), try fields(again))
    #expect(resent["key"] as? String == "van-7/7/90" && resent["sequence"] as? Int == 90)
    #expect(NSArray(array: resent["samples"] as? [Any] ?? []).isEqual(to: original["samples"] as? [Any] ?? [1]))
    for key in ["schema", "vehicle", "shift", "capture_session"] {
      #expect((resent[key] as? NSObject)?.isEqual(original[key]) == true, "\(key)")
    }
  }

  /// The store as the daemon has it: the outbox installed, its commits queued.
  static func store(at path: String) throws -> SampleStore {
    let store = try SampleStore(path: path)
    try store.install(Outbox.schema)
    store.commitObserver = OutboxCommitObserver(
      outbox: Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 100), unit: .miles)
    return store
  }

  static func delivery(_ path: String) throws -> [String] {
    try DaemonDatabaseProbe.query(
      path,
      "SELECT sample_rows || '|' || samples_acknowledged || '|' || shift_acknowledged || '|' || counted_from FROM uplink_shift_delivery WHERE shift_id = 1"
    )
  }

  @Test(
    "delivery: a whole shift sent again counts afresh from its first message; the first sending's late acknowledgements and a part's never count"
  )
  func deliveryRecord() throws {
    let database = try TestDatabase()
    let store = try Self.store(at: database.path)
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 100)
    let shift = try store.startShift(at: Self.t0)
    let samples = Self.samples(12, changed: 0)
    for batch in 0..<3 { try store.append(Array(samples[(batch * 4)..<(batch * 4 + 4)]), toShift: shift.id) }
    _ = try store.endShift(shift.id, at: Self.t0 + 20)
    let drain = try database.open(vehicle: "van-7")
    // Session start, three batches, the shift message: 1-5. The broker took the first batch.
    #expect(try drain.peek(limit: 10).map(\.topic) == [.session, .samples, .samples, .samples, .shift])
    #expect(try drain.remove(sequences: [2]) == 1)
    #expect(try Self.delivery(database.path) == ["12|4|0|0"])

    // A part sent again (one batch: 6): acknowledged, it counts for nothing.
    let part = ShiftResend(shiftID: 1, samples: samples, stops: [], report: nil, since: Self.t0, until: Self.t0 + 3)
    _ = try store.transaction("resend a part") { (transaction) throws(StoreError) in
      try outbox.enqueue(part, messages: 0..<part.messages.count, queuedAt: Self.t0 + 60, in: transaction)
    }
    #expect(try drain.remove(sequences: [6]) == 1)
    #expect(try Self.delivery(database.path) == ["12|4|0|0"])

    // The whole shift sent again (7: its twelve samples; 8: the shift message): counted
    // from 7. Sequences 3 to 5 of the first sending, acknowledged after, count for nothing.
    let stored = try #require(try store.shift(id: 1))
    let report = try #require(ShiftReport(shift: stored.shift, distance: try store.recordedDistance(ofShift: 1)))
    let whole = ShiftResend(shiftID: 1, samples: samples, stops: [], report: report, readAfterSequence: 6)
    _ = try store.transaction("resend the shift") { (transaction) throws(StoreError) in
      try outbox.enqueue(whole, messages: 0..<1, queuedAt: Self.t0 + 70, in: transaction)
    }
    _ = try store.transaction("resend the shift") { (transaction) throws(StoreError) in
      try outbox.enqueue(whole, messages: 1..<2, queuedAt: Self.t0 + 70, in: transaction)
    }
    #expect(try Self.delivery(database.path) == ["12|0|0|7"])
    #expect(try drain.remove(sequences: [3, 4, 5]) == 3)
    #expect(try Self.delivery(database.path) == ["12|0|0|7"])
    #expect(
      try !store.read { (transaction) throws(StoreError) in try ShiftDelivery.isAcknowledged(shift: 1, in: transaction)
      })
    #expect(try drain.remove(sequences: [7, 8]) == 2)
    #expect(try Self.delivery(database.path) == ["12|12|1|7"])
    #expect(
      try store.read { (transaction) throws(StoreError) in try ShiftDelivery.isAcknowledged(shift: 1, in: transaction) }
    )
  }

  @Test("delivery: a running shift sent again whole counts the rows committed after it was read by their own messages")
  func runningShiftDelivery() throws {
    let database = try TestDatabase()
    let store = try Self.store(at: database.path)
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 100)
    let shift = try store.startShift(at: Self.t0)
    let samples = Self.samples(12, changed: 0)
    for batch in 0..<2 { try store.append(Array(samples[(batch * 4)..<(batch * 4 + 4)]), toShift: shift.id) }
    // Read as the daemon reads it: the rows so far and, in the same snapshot, the outbox's
    // last sequence (session start and two batches: 3).
    let read = try store.read { (transaction) throws(StoreError) -> ShiftResend in
      ShiftResend(
        shiftID: 1, samples: try store.samples(ofShift: 1), stops: [], report: nil,
        readAfterSequence: try outbox.lastSequence(in: transaction))
    }
    #expect(read.readAfterSequence == 3 && read.sampleCount == 8)
    // Capture commits a batch (4) before the resend is queued (5), then the shift ends (6).
    try store.append(Array(samples[8..<12]), toShift: shift.id)
    _ = try store.transaction("resend") { (transaction) throws(StoreError) in
      try outbox.enqueue(read, messages: 0..<read.messages.count, queuedAt: Self.t0 + 30, in: transaction)
    }
    _ = try store.endShift(shift.id, at: Self.t0 + 40)
    let drain = try database.open(vehicle: "van-7")
    #expect(try drain.peek(limit: 10).map(\.topic) == [.session, .samples, .samples, .samples, .samples, .shift])
    #expect(try drain.remove(sequences: [1, 2, 3, 4, 5, 6]) == 6)
    // The first sending's two batches count for nothing; the batch after the read and the resend's eight do.
    #expect(try Self.delivery(database.path) == ["12|12|1|4"])
  }
}
