import DashPilotCore
import FoundationEssentials
import Synchronization

/// Completed shifts' figures, remembered for the life of the process: the seed forbids
/// storing a figure, not remembering one, and measuring a year of shifts again for every
/// `shifts` would read the whole file each time. Each is remembered with what its rows
/// were when it was measured (the shift's end, its first and last row ids, read at a cost
/// that does not grow with it) and the writer's row epoch (`SampleStore.rowEpoch()`, which
/// moves whenever rows read may have gone or changed), so a figure whose rows changed in
/// any way is measured again. Shared by the threads that read history.
public final class ShiftFigureMemory: Sendable {
  struct Key: Hashable {
    var endedAt: Date
    var firstRowID: Int64
    var lastRowID: Int64
    var rowEpoch: UInt64
  }

  private let figures = Mutex<[Int64: (key: Key, distance: RouteDistance)]>([:])

  public init() {}

  /// How many figures are remembered.
  public var count: Int { figures.withLock { $0.count } }

  func distance(ofShift id: Int64, key: Key) -> RouteDistance? {
    figures.withLock { figures in figures[id].flatMap { $0.key == key ? $0.distance : nil } }
  }

  func remember(_ distance: RouteDistance, ofShift id: Int64, key: Key) {
    figures.withLock { $0[id] = (key, distance) }
  }

  /// Forgets every figure (the store's file was replaced).
  public func forgetAll() {
    figures.withLock { $0.removeAll() }
  }
}

extension SampleStore {
  /// The writer's row epoch now: it moves whenever rows already read may have gone or
  /// changed (a deletion, an update, a rolled-back insert, another connection's commit).
  /// Read on the writer's thread and hand it to a reader with its request.
  public func rowEpoch() throws(StoreError) -> UInt64 {
    sampleRowWatch.observe(dataVersion: try database.scalarInt64("PRAGMA data_version") ?? 0)
    return sampleRowWatch.epoch
  }

  /// `recordedDistance(ofShift:)`, remembered in `memory` for a completed shift whose rows
  /// have not changed since (`rowEpoch`: the writer's, read before this read began). An open
  /// shift is measured every time: its rows grow.
  public func recordedDistance(
    ofShift id: Int64, remembering memory: ShiftFigureMemory, rowEpoch: UInt64
  ) throws(StoreError) -> RouteDistance {
    try database.readTransaction { () throws(StoreError) -> RouteDistance in
      guard let stored = try shift(id: id) else { throw .shiftNotFound(id) }
      guard let endedAt = stored.shift.endedAt else { return try recordedDistance(ofShift: id) }
      let (first, last) = try rowRange(ofShift: id)
      let key = ShiftFigureMemory.Key(endedAt: endedAt, firstRowID: first, lastRowID: last, rowEpoch: rowEpoch)
      if let remembered = memory.distance(ofShift: id, key: key) { return remembered }
      let distance = try recordedDistance(ofShift: id)
      memory.remember(distance, ofShift: id, key: key)
      return distance
    }
  }

  /// The ids of the shift's first and last rows (0 when it has none): two index searches.
  func rowRange(ofShift shiftID: Int64) throws(StoreError) -> (first: Int64, last: Int64) {
    // Two aggregates in one SELECT would scan the range; each alone is one index search.
    try database.withStatement(
      "SELECT (SELECT min(id) FROM samples WHERE shift_id = ?1), (SELECT max(id) FROM samples WHERE shift_id = ?1)"
    ) {
      (s) throws(StoreError) -> (first: Int64, last: Int64) in
      try s.bind(shiftID, at: 1)
      guard try s.step() else { return (0, 0) }
      return (s.optionalInt64(0) ?? 0, s.optionalInt64(1) ?? 0)
    }
  }
}
