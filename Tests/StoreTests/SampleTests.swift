import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct SampleTests {
  @Test func samplesReadBackInOrderWithTheirSessionsAndValues() throws {
    let file = try TemporaryStoreFile("samples")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let samples = [
      RouteSample(
        timestamp: at(1_700_000_000.125), coordinate: GeoCoordinate(latitude: 51.501_234_5, longitude: -0.123_456_7),
        horizontalAccuracy: 4.75, speed: 13.37, course: 271.25, captureSessionID: CaptureSessionID("a")),
      RouteSample(
        timestamp: at(1_700_000_001.5), coordinate: GeoCoordinate(latitude: -33.868_8, longitude: 151.209_3),
        horizontalAccuracy: 0, speed: nil, course: -10, captureSessionID: CaptureSessionID("b")),
      RouteSample(
        timestamp: at(1_700_000_002), coordinate: GeoCoordinate(latitude: 90, longitude: -180),
        horizontalAccuracy: 99.99, speed: 0, course: nil, captureSessionID: nil),
    ]
    let ids = try store.append(samples, toShift: shift.id)
    #expect(ids == [1, 2, 3])
    let read = try store.samples(ofShift: shift.id)
    #expect(read.count == 3)
    #expect(read.map(\.timestamp) == [at(1_700_000_000.125), at(1_700_000_001.5), at(1_700_000_002)])
    #expect(read.map(\.captureSessionID) == [CaptureSessionID("a"), CaptureSessionID("b"), nil])
    #expect(abs(read[0].coordinate.latitude - 51.501_234_5) < 1e-9)
    #expect(abs(read[0].coordinate.longitude - -0.123_456_7) < 1e-9)
    #expect(read[0].horizontalAccuracy == 4.75)
    #expect(read[0].speed == 13.37)
    #expect(read[0].course == 271.25)
    #expect(read[1].speed == nil)
    #expect(read[1].course == 350)  // normalised
    #expect(read[2].coordinate == GeoCoordinate(latitude: 90, longitude: -180))
    #expect(read[2].course == nil)
    #expect(try store.lastSample(ofShift: shift.id) == read[2])
    #expect(try store.storedSamples(ofShift: shift.id, after: 1).map(\.rowID) == [2, 3])
    #expect(try store.rowTally(ofShift: shift.id).lastRowID == 3)
    #expect(try store.sampleCount(ofShift: shift.id) == 3)
  }

  @Test func theStoredFormIsTheSampleAtTheStoresPrecision() throws {
    let sample = RouteSample(
      timestamp: at(1_700_000_000.0004), coordinate: GeoCoordinate(latitude: 51.123_456_78, longitude: -0.987_654_32),
      horizontalAccuracy: 4.756, speed: 12.344, course: 359.999, captureSessionID: CaptureSessionID("a"))
    let stored = try SampleStore.storedForm(of: sample)
    #expect(stored.timestamp == at(1_700_000_000))
    #expect(abs(stored.coordinate.latitude - 51.123_456_8) < 1e-12)
    #expect(abs(stored.coordinate.longitude - -0.987_654_3) < 1e-12)
    #expect(stored.horizontalAccuracy == 4.76)
    #expect(stored.speed == 12.34)
    #expect(stored.course == 0)  // 359.999 rounds to a full turn
    #expect(stored.captureSessionID == CaptureSessionID("a"))
  }

  @Test func anUnstorableSampleIsRefusedWithAReasonAndNothingIsWritten() throws {
    let file = try TemporaryStoreFile("invalid")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    var bad = straightRoute(count: 3)
    bad[2].coordinate = GeoCoordinate(latitude: 95, longitude: 0)
    let error = #expect(throws: StoreError.self) { try store.append(bad, toShift: shift.id) }
    #expect(error?.description.contains("latitude must be within ±90") == true)
    #expect(try store.samples(ofShift: shift.id).isEmpty)

    var noAccuracy = straightRoute(count: 1)
    noAccuracy[0].horizontalAccuracy = .infinity
    let accuracy = #expect(throws: StoreError.self) { try store.append(noAccuracy, toShift: shift.id) }
    #expect(accuracy?.description.contains("horizontal accuracy") == true)
    var negativeSpeed = straightRoute(count: 1)
    negativeSpeed[0].speed = -1
    #expect(throws: StoreError.self) { try store.append(negativeSpeed, toShift: shift.id) }
    #expect(try store.rowTally(ofShift: shift.id) == (count: 0, lastRowID: 0))
  }

  @Test func samplesAreOnlyAddedToTheOpenShift() throws {
    let file = try TemporaryStoreFile("closed")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let ended = try store.endShift(shift.id, at: at(1_700_000_100))
    #expect(throws: StoreError.shiftAlreadyEnded(ended.shift)) {
      try store.append(straightRoute(count: 2), toShift: shift.id)
    }
    #expect(throws: StoreError.shiftNotFound(42)) { try store.append(straightRoute(count: 2), toShift: 42) }
  }

  @Test func theCountFollowsInsertsDeletesAndMoves() throws {
    let file = try TemporaryStoreFile("count")
    let store = try file.open()
    let first = try store.startShift(at: at(1_700_000_000))
    try store.append(straightRoute(count: 10), toShift: first.id)
    _ = try store.endShift(first.id, at: at(1_700_000_100))
    let second = try store.startShift(at: at(1_700_000_200))
    try store.append(straightRoute(count: 4, start: at(1_700_000_200)), toShift: second.id)
    try store.database.execute("DELETE FROM samples WHERE id IN (2, 3)")
    try store.database.execute("UPDATE samples SET shift_id = 2 WHERE id = 4")
    #expect(try store.sampleCount(ofShift: first.id) == 7)
    #expect(try store.sampleCount(ofShift: second.id) == 5)
    #expect(try store.rowTally(ofShift: first.id).lastRowID == 10)
    #expect(try store.rowTally(ofShift: second.id).lastRowID == 14)
  }

  /// The row epoch moves on everything after which rows read may be gone or different, and
  /// on nothing else: a status reads on from its last row only while it stands still.
  @Test func theRowEpochMovesWhenRowsReadMayHaveGone() throws {
    let file = try TemporaryStoreFile("epoch")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    func epoch() throws -> UInt64 { try store.rowTally(ofShift: shift.id).rowEpoch }
    let start = try epoch()
    try store.append(straightRoute(count: 5), toShift: shift.id)
    _ = try store.endShift(shift.id, at: at(1_700_000_100))
    #expect(try epoch() == start, "inserts and a shift's own row leave it")
    try store.database.execute("BEGIN IMMEDIATE; UPDATE shifts SET imported_from = 'x'; ROLLBACK")
    #expect(try epoch() == start, "a rolled-back transaction that inserted no sample")
    try store.database.execute("DELETE FROM samples WHERE id = 2")
    #expect(try epoch() == start + 1, "a delete")
    try store.database.execute("UPDATE samples SET held = 1 WHERE id = 3")
    #expect(try epoch() == start + 2, "an update")
    func insertSample(atSecond second: Int) throws(StoreError) {
      try store.database.execute(
        """
        INSERT INTO samples (shift_id, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm)
        VALUES (1, \(1_700_000_000_000 + second * 1000), 515000000, -1200000, 500)
        """)
    }
    #expect(throws: StoreError.self) {
      try store.database.writeTransaction("insert, then fail") { () throws(StoreError) in
        try insertSample(atSecond: 10)
        throw .shiftNotFound(99)
      }
    }
    #expect(try epoch() == start + 3, "a rolled-back insert")
    #expect(throws: StoreError.self) {
      try store.database.writeTransaction("outer") { () throws(StoreError) in
        try store.database.writeTransaction("inner") { () throws(StoreError) in
          try insertSample(atSecond: 11)
          throw .shiftNotFound(98)
        }
      }
    }
    #expect(try epoch() == start + 5, "a savepoint undone after an insert, then its transaction")
    let other = try Database(path: file.path)
    try other.execute("UPDATE samples SET held = 0 WHERE id = 3")
    #expect(try epoch() == start + 6, "another connection's commit")
    #expect(try epoch() == start + 6)
    #expect(try store.sampleCount(ofShift: shift.id) == 4)
  }

  @Test func queriesForAShiftsRowsUseItsIndex() throws {
    let file = try TemporaryStoreFile("plan")
    let store = try file.open()
    func plan(_ sql: String) throws -> String {
      try store.database.withStatement("EXPLAIN QUERY PLAN " + sql) { (s) throws(StoreError) -> String in
        var details: [String] = []
        while try s.step() { details.append(s.text(3) ?? "") }
        return details.joined(separator: "; ")
      }
    }
    let after = try plan(
      "SELECT \(SampleStore.sampleColumns) FROM samples WHERE shift_id = 1 AND id > 5 ORDER BY id")
    #expect(after.contains("USING INDEX samples_by_shift (shift_id=? AND rowid>?)"))
    let last = try plan("SELECT max(id) FROM samples WHERE shift_id = 1")
    #expect(last.contains("USING COVERING INDEX samples_by_shift (shift_id=?)"))
    #expect(!after.contains("TEMP B-TREE"))  // no sort: the index is already in row order
  }
}
