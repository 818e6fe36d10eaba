import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct LiveMeasurementTests {
  /// The one-pass figure of the shift's stored rows with no window: what the live figure
  /// must equal.
  static func onePass(_ store: SampleStore, _ shift: StoredShift) throws -> RouteDistance {
    shift.calculator.distance(of: try store.samples(ofShift: shift.id), covering: nil)
  }

  @Test(arguments: 1...12)
  func theLiveFigureEqualsTheOnePassFigureAfterEveryExtension(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let file = try TemporaryStoreFile("live-\(seed)")
    let store = try file.open()
    let interval: TimeInterval = seed % 3 == 0 ? 60 : 120
    let shift = try store.startShift(at: at(1_700_000_000), maximumSampleInterval: interval)
    let route = StoreRandomRoutes.route(
      count: 400, using: &generator, anonymousSessions: seed % 4 == 0)
    let service = ActiveShiftRouteService(store: store)
    #expect(try service.status()?.distance == .empty)
    var appended = 0
    var extensions = 0
    while appended < route.count {
      let size = min(Int.random(in: 1...15, using: &generator), route.count - appended)
      try store.append(Array(route[appended..<appended + size]), toShift: shift.id)
      appended += size
      let status = try #require(try service.status())
      #expect(status.distance == (try Self.onePass(store, shift)), "after \(appended) rows")
      #expect(status.rowsMeasured == appended)
      extensions += 1
      // Asking again with nothing new changes nothing.
      #expect(try service.status() == status)
    }
    let final = try #require(try service.status())
    #expect(final.distance.usablePositions == 400)
    #expect(final.distance.usesInferredContinuity == (seed % 4 == 0))
    #expect(final.distance.gaps > 0)
    #expect(service.measurement?.freshStarts == 0)
    #expect(extensions > 20)
  }

  /// 40 committed rows, read by the service, then a write transaction left open.
  static func storeWithOpenTransaction() throws -> (
    TemporaryStoreFile, SampleStore, StoredShift, ActiveShiftRouteService, [RouteSample]
  ) {
    var generator = SeededGenerator(seed: 99)
    let route = StoreRandomRoutes.route(count: 80, using: &generator)
    let file = try TemporaryStoreFile("rollback")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    try store.append(Array(route[0..<40]), toShift: shift.id)
    let service = ActiveShiftRouteService(store: store)
    #expect(try service.status()?.rowsMeasured == 40)
    try store.database.execute("BEGIN IMMEDIATE")
    return (file, store, shift, service, route)
  }

  static func insertUncommitted(_ store: SampleStore, _ shift: StoredShift, _ samples: ArraySlice<RouteSample>) throws {
    _ = try store.insertRows(
      try SampleStore.encode(Array(samples)), sessions: samples.map(\.captureSessionID), shiftID: shift.id)
  }

  @Test func aRolledBackBatchThatWasMeasuredIsMeasuredAgain() throws {
    let (_, store, shift, service, route) = try Self.storeWithOpenTransaction()
    try Self.insertUncommitted(store, shift, route[40..<50])
    // Read inside the transaction, as a context hands back its unsaved inserts.
    let during = try #require(try service.status())
    #expect(during.rowsMeasured == 50)
    try store.database.execute("ROLLBACK")

    let after = try #require(try service.status())
    #expect(service.measurement?.freshStarts == 1)
    #expect(after.rowsMeasured == 40)
    #expect(after.distance == (try Self.onePass(store, shift)))
    #expect(after.distance != during.distance)
  }

  @Test func rolledBackRowsReplacedByAsManyOthersAreMeasuredAgain() throws {
    let (_, store, shift, service, route) = try Self.storeWithOpenTransaction()
    try Self.insertUncommitted(store, shift, route[40..<50])
    _ = try service.status()
    try store.database.execute("ROLLBACK")
    // Ten different rows take the same ids: the count and the last id are as they were.
    var moved = Array(route[40..<50])
    for i in moved.indices { moved[i].coordinate.latitude += 0.01 }
    try store.append(moved, toShift: shift.id)
    #expect(try store.sampleCount(ofShift: shift.id) == 50)
    #expect(try store.rowTally(ofShift: shift.id).lastRowID == 50)

    let after = try #require(try service.status())
    #expect(service.measurement?.freshStarts == 1)
    #expect(after.rowsMeasured == 50)
    #expect(after.distance == (try Self.onePass(store, shift)))
  }

  @Test func rolledBackRowsReplacedByMoreRowsAreMeasuredAgain() throws {
    let (_, store, shift, service, route) = try Self.storeWithOpenTransaction()
    try Self.insertUncommitted(store, shift, route[40..<45])
    _ = try service.status()
    try store.database.execute("ROLLBACK")
    var moved = Array(route[40..<60])
    for i in moved.indices { moved[i].coordinate.longitude += 0.01 }
    try store.append(moved, toShift: shift.id)

    let after = try #require(try service.status())
    #expect(service.measurement?.freshStarts == 1)
    #expect(after.rowsMeasured == 60)
    #expect(after.distance == (try Self.onePass(store, shift)))
  }

  @Test func deletedRowsAreCaughtByCountingTheRowsRead() throws {
    var generator = SeededGenerator(seed: 7)
    let route = StoreRandomRoutes.route(count: 60, using: &generator)
    let file = try TemporaryStoreFile("deleted")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    try store.append(Array(route[0..<50]), toShift: shift.id)
    let service = ActiveShiftRouteService(store: store)
    let before = try #require(try service.status())
    try store.database.execute("DELETE FROM samples WHERE id BETWEEN 10 AND 19")
    try store.append(Array(route[50..<60]), toShift: shift.id)
    // The store holds 50 rows again, the last is new: only the rows read show the loss.
    #expect(try store.sampleCount(ofShift: shift.id) == 50)

    let after = try #require(try service.status())
    #expect(service.measurement?.freshStarts == 1)
    #expect(after.rowsMeasured == 50)
    #expect(after.distance == (try Self.onePass(store, shift)))
    #expect(after.distance != before.distance)
  }

  @Test func theMeasurementFollowsTheOpenShift() throws {
    let file = try TemporaryStoreFile("follow")
    let store = try file.open()
    let service = ActiveShiftRouteService(store: store)
    #expect(try service.status() == nil)
    let first = try store.startShift(at: at(1_700_000_000))
    try store.append(straightRoute(count: 11), toShift: first.id)
    let running = try #require(try service.status())
    #expect(running.shift.id == first.id)
    #expect(running.distance.segments == 1)
    #expect(abs(running.distance.metres - 1_000) < 0.05)
    _ = try store.endShift(first.id, at: at(1_700_000_100))
    #expect(try service.status() == nil)
    #expect(service.measurement == nil)
    let second = try store.startShift(at: at(1_700_001_000))
    let fresh = try #require(try service.status())
    #expect(fresh.shift.id == second.id)
    #expect(fresh.distance == .empty)
    #expect(fresh.rowsMeasured == 0)
  }

  @Test func theStepIsDecidedFromTheRowsRead() {
    var measurement = ActiveRouteMeasurement(shiftID: 1, maximumSampleInterval: 120)
    let samples = straightRoute(count: 3)
    #expect(measurement.step(given: .init(rowEpoch: 0, lastRowID: 0, rowAtLastRead: nil)) == .upToDate)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 2, rowAtLastRead: nil)) == .readRows(after: 0))
    measurement.extend(with: StoredSample(rowID: 1, shiftID: 1, sample: samples[0]), rowEpoch: 4)
    measurement.extend(with: StoredSample(rowID: 2, shiftID: 1, sample: samples[1]), rowEpoch: 4)
    #expect(measurement.rowsRead == 2)
    #expect(measurement.lastRowID == 2)
    #expect(measurement.rowEpochRead == 4)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 2, rowAtLastRead: samples[1])) == .upToDate)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 3, rowAtLastRead: samples[1])) == .readRows(after: 2))
    #expect(measurement.step(given: .init(rowEpoch: 5, lastRowID: 2, rowAtLastRead: samples[1])) == .measureAgain)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 1, rowAtLastRead: samples[1])) == .measureAgain)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 2, rowAtLastRead: samples[2])) == .measureAgain)
    #expect(measurement.step(given: .init(rowEpoch: 4, lastRowID: 3, rowAtLastRead: nil)) == .measureAgain)
    measurement.startAgain()
    #expect(measurement.rowsRead == 0)
    #expect(measurement.rowEpochRead == nil)
    #expect(measurement.freshStarts == 1)
    #expect(measurement.distance == .empty)
  }
}
