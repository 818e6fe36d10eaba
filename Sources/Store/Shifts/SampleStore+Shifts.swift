import DashPilotCore
import FoundationEssentials

extension SampleStore {
  static let shiftColumns =
    "id, started_at_ms, ended_at_ms, maximum_sample_interval, imported_from, started_by, ended_by"

  /// Starts a shift at `startedAt`, by hand unless `startedBy` says otherwise. Refused
  /// with `.shiftAlreadyOpen` while one is open.
  public func startShift(
    at startedAt: Date,
    maximumSampleInterval: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval,
    startedBy: ShiftStartCause = .manual
  ) throws(StoreError) -> StoredShift {
    let start = try EncodedSample.milliseconds(startedAt, role: "shift start")
    try Self.validate(maximumSampleInterval: maximumSampleInterval)
    return try write("start a shift") { () throws(StoreError) -> StoredShift in
      if let open = try openShift() { throw .shiftAlreadyOpen(open.shift) }
      let id = try insertShift(
        startMilliseconds: start, endMilliseconds: nil,
        maximumSampleInterval: maximumSampleInterval, importedFrom: nil, startedBy: startedBy)
      guard let shift = try shift(id: id) else { throw .shiftNotFound(id) }
      return shift
    }
  }

  /// Ends shift `id` at `endedAt`, by hand unless `endedBy` says otherwise. Flush any
  /// pending `SampleBatch` first, so its samples are part of the shift.
  public func endShift(_ id: Int64, at endedAt: Date, endedBy: ShiftEndCause = .manual) throws(StoreError)
    -> StoredShift
  {
    let end = try EncodedSample.milliseconds(endedAt, role: "shift end")
    return try write("end shift \(id)") { () throws(StoreError) -> StoredShift in
      guard let found = try shift(id: id) else { throw .shiftNotFound(id) }
      guard found.shift.isRunning else { throw .shiftAlreadyEnded(found.shift) }
      try database.withStatement("UPDATE shifts SET ended_at_ms = ?, ended_by = ? WHERE id = ?") {
        (s) throws(StoreError) in
        try s.bind(end, at: 1)
        try s.bind(endedBy.rawValue, at: 2)
        try s.bind(id, at: 3)
        try s.step()
      }
      var ended = found
      ended.shift.endedAt = EncodedSample.date(milliseconds: end)
      ended.endedBy = endedBy
      if let commitObserver {
        try commitObserver.shiftCompleted(
          ended, distance: try recordedDistance(ofShift: id), sampleRows: try sampleCount(ofShift: id),
          in: currentTransaction)
      }
      return ended
    }
  }

  /// Moves the start of open shift `id` to `startedAt`: the daemon dates a shift started
  /// before any fix by the wall clock, and corrects it from the first fix when that clock
  /// was years off. An ended shift is never re-dated.
  public func redateShiftStart(_ id: Int64, to startedAt: Date) throws(StoreError) {
    let start = try EncodedSample.milliseconds(startedAt, role: "shift start")
    try write("re-date shift \(id)") { () throws(StoreError) in
      guard let found = try shift(id: id) else { throw .shiftNotFound(id) }
      guard found.shift.isRunning else { throw .shiftAlreadyEnded(found.shift) }
      try database.withStatement("UPDATE shifts SET started_at_ms = ? WHERE id = ?") { (s) throws(StoreError) in
        try s.bind(start, at: 1)
        try s.bind(id, at: 2)
        try s.step()
      }
    }
  }

  /// Ends whichever shift is open; `.noOpenShift` when none is.
  public func endOpenShift(at endedAt: Date, endedBy: ShiftEndCause = .manual) throws(StoreError) -> StoredShift {
    guard let open = try openShift() else { throw .noOpenShift }
    return try endShift(open.id, at: endedAt, endedBy: endedBy)
  }

  /// The open shift, if any (at most one: the schema enforces it).
  public func openShift() throws(StoreError) -> StoredShift? {
    try database.withStatement(
      "SELECT \(Self.shiftColumns) FROM shifts WHERE ended_at_ms IS NULL LIMIT 1"
    ) { (s) throws(StoreError) -> StoredShift? in try s.step() ? Self.shift(from: s) : nil }
  }

  /// Shift `id`; nil when there is none, or when it is being deleted (`beginDeleting`): a
  /// shift is never seen half-deleted.
  public func shift(id: Int64) throws(StoreError) -> StoredShift? {
    try database.withStatement("SELECT \(Self.shiftColumns) FROM shifts WHERE id = ? AND deleting = 0") {
      (s) throws(StoreError) -> StoredShift? in
      try s.bind(id, at: 1)
      return try s.step() ? Self.shift(from: s) : nil
    }
  }

  /// Every shift, oldest first (none being deleted).
  public func shifts() throws(StoreError) -> [StoredShift] {
    try database.withStatement("SELECT \(Self.shiftColumns) FROM shifts WHERE deleting = 0 ORDER BY id") {
      (s) throws(StoreError) -> [StoredShift] in
      var result: [StoredShift] = []
      while try s.step() { result.append(Self.shift(from: s)) }
      return result
    }
  }

  /// A page of the shifts, newest first (by id: the order they were made): at most `limit`,
  /// with ids below `before`, started at or after `since` and before `until`, none being
  /// deleted; `more` says
  /// whether older shifts match beyond it. The shifts table has a row a day at most, so a
  /// page costs the same whatever the age of the file.
  public func shifts(
    limit: Int, before: Int64? = nil, since: Date? = nil, until: Date? = nil
  ) throws(StoreError) -> (shifts: [StoredShift], more: Bool) {
    let from = try since.map { (date) throws(StoreError) in try EncodedSample.milliseconds(date, role: "since") }
    let to = try until.map { (date) throws(StoreError) in try EncodedSample.milliseconds(date, role: "until") }
    return try database.withStatement(
      """
      SELECT \(Self.shiftColumns) FROM shifts
      WHERE id < ?1 AND started_at_ms >= ?2 AND started_at_ms < ?3 AND deleting = 0 ORDER BY id DESC LIMIT ?4
      """
    ) { (s) throws(StoreError) -> (shifts: [StoredShift], more: Bool) in
      try s.bind(before ?? Int64.max, at: 1)
      try s.bind(from ?? Int64.min, at: 2)
      try s.bind(to ?? Int64.max, at: 3)
      try s.bind(Int64(max(0, limit)) + 1, at: 4)
      var page: [StoredShift] = []
      while try s.step() { page.append(Self.shift(from: s)) }
      let more = page.count > limit
      return (Array(page.prefix(limit)), more)
    }
  }

  /// The shift's recorded distance, measured now from its stored rows in one pass, with
  /// the shift's window when it has ended. Nothing derived is stored, so a fix to the
  /// calculation improves every historical shift.
  /// The rows are walked as they are read (`RouteMileagePass`), none of them held; only a
  /// shift whose rows are out of measurement order (a clock stepped back) is read again
  /// whole and sorted.
  public func recordedDistance(ofShift id: Int64) throws(StoreError) -> RouteDistance {
    try database.readTransaction { () throws(StoreError) -> RouteDistance in
      guard let stored = try shift(id: id) else { throw .shiftNotFound(id) }
      var pass = RouteMileagePass(calculator: stored.calculator)
      try readSamples(ofShift: id) { (sample) in
        pass.add(sample)
        return pass.isInMeasurementOrder
      }
      if let distance = pass.distance(covering: stored.shift.window) { return distance }
      return stored.shift.recordedDistance(of: try samples(ofShift: id), calculator: stored.calculator)
    }
  }

  // MARK: - Rows

  func insertShift(
    startMilliseconds: Int64, endMilliseconds: Int64?, maximumSampleInterval: TimeInterval,
    importedFrom: String?, startedBy: ShiftStartCause, endedBy: ShiftEndCause? = nil
  ) throws(StoreError) -> Int64 {
    try database.withStatement(
      """
      INSERT INTO shifts (started_at_ms, ended_at_ms, maximum_sample_interval, imported_from, started_by, ended_by)
      VALUES (?, ?, ?, ?, ?, ?)
      """
    ) { (s) throws(StoreError) -> Int64 in
      try s.bind(startMilliseconds, at: 1)
      try s.bind(endMilliseconds, at: 2)
      try s.bind(maximumSampleInterval, at: 3)
      try s.bind(importedFrom, at: 4)
      try s.bind(startedBy.rawValue, at: 5)
      try s.bind(endedBy?.rawValue, at: 6)
      try s.step()
      return database.lastInsertRowID
    }
  }

  static func shift(from s: Statement) -> StoredShift {
    let shift = Shift(
      id: s.int64(0), startedAt: EncodedSample.date(milliseconds: s.int64(1)),
      endedAt: s.optionalInt64(2).map(EncodedSample.date(milliseconds:)))
    return StoredShift(
      shift: shift, maximumSampleInterval: s.double(3),
      origin: s.text(4).map { .imported(source: $0) } ?? .recorded,
      startedBy: s.text(5).flatMap(ShiftStartCause.init(rawValue:)),
      endedBy: s.text(6).flatMap(ShiftEndCause.init(rawValue:)))
  }

  static func validate(maximumSampleInterval: TimeInterval) throws(StoreError) {
    guard maximumSampleInterval.isFinite, maximumSampleInterval > 0 else {
      throw .invalidSetting("maximum sample interval \(maximumSampleInterval) s must be a positive number of seconds")
    }
  }
}
