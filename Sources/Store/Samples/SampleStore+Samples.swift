import DashPilotCore
import FoundationEssentials

extension SampleStore {
  /// Appends `samples` to the open shift `shiftID` in one transaction: all are committed or
  /// none. A sample that cannot be stored is refused before anything is written. A sample
  /// whose capture session was never begun begins it, at the sample's time.
  /// Returns the rows' ids.
  @discardableResult
  public func append(_ samples: [RouteSample], toShift shiftID: Int64) throws(StoreError) -> [Int64] {
    let encoded = try Self.encode(samples)
    return try write("save \(samples.count) samples") { () throws(StoreError) -> [Int64] in
      guard let shift = try shift(id: shiftID) else { throw .shiftNotFound(shiftID) }
      guard shift.shift.isRunning else { throw .shiftAlreadyEnded(shift.shift) }
      let ids = try insertRows(encoded, sessions: samples.map(\.captureSessionID), shiftID: shiftID)
      try commitObserver?.samplesStored(samples, shiftID: shiftID, in: currentTransaction)
      return ids
    }
  }

  /// The shift's samples in the order they were stored, each with its capture session:
  /// what an export writes (see `continuousSegments(ofShift:)` for where to break it).
  /// `.shiftNotFound` for a shift that does not exist.
  public func samples(ofShift shiftID: Int64) throws(StoreError) -> [RouteSample] {
    var result: [RouteSample] = []
    guard try shift(id: shiftID) != nil else { throw .shiftNotFound(shiftID) }
    result.reserveCapacity(try sampleCount(ofShift: shiftID))
    try readRows(ofShift: shiftID, after: 0) { (_, sample) in
      result.append(sample)
      return true
    }
    return result
  }

  /// The shift's rows after row `rowID` (0 for all), in row order.
  public func storedSamples(ofShift shiftID: Int64, after rowID: Int64 = 0) throws(StoreError) -> [StoredSample] {
    var result: [StoredSample] = []
    try readRows(ofShift: shiftID, after: rowID) { (row, sample) in
      result.append(StoredSample(rowID: row, shiftID: shiftID, sample: sample))
      return true
    }
    return result
  }

  /// The last sample stored for the shift: what `RouteSampleFilter` resumes from after a
  /// restart or a failed save.
  public func lastSample(ofShift shiftID: Int64) throws(StoreError) -> RouteSample? {
    try database.withStatement(
      "SELECT \(Self.sampleColumns) FROM samples WHERE shift_id = ? ORDER BY id DESC LIMIT 1"
    ) { (s) throws(StoreError) -> RouteSample? in
      try s.bind(shiftID, at: 1)
      guard try s.step() else { return nil }
      return try sample(from: s)
    }
  }

  /// The sample in row `row` if it belongs to shift `shiftID`.
  public func storedSample(row: Int64, ofShift shiftID: Int64) throws(StoreError) -> RouteSample? {
    try database.withStatement(
      "SELECT \(Self.sampleColumns) FROM samples WHERE id = ? AND shift_id = ?"
    ) { (s) throws(StoreError) -> RouteSample? in
      try s.bind(row, at: 1)
      try s.bind(shiftID, at: 2)
      guard try s.step() else { return nil }
      return try sample(from: s)
    }
  }

  /// What a reader of the shift's rows needs to know whether it is up to date, at a cost
  /// that does not grow with the shift (one index search): the id of the shift's last row
  /// (0 when it has none) and the store's row epoch, which grows whenever sample rows that
  /// were read may since have gone or changed (`RowWatch`).
  public func rowTally(ofShift shiftID: Int64) throws(StoreError) -> (rowEpoch: UInt64, lastRowID: Int64) {
    let last = try database.withStatement("SELECT max(id) FROM samples WHERE shift_id = ?") {
      (s) throws(StoreError) -> Int64 in
      try s.bind(shiftID, at: 1)
      return try s.step() ? s.optionalInt64(0) ?? 0 : 0
    }
    sampleRowWatch.observe(dataVersion: try database.scalarInt64("PRAGMA data_version") ?? 0)
    return (sampleRowWatch.epoch, last)
  }

  /// How many rows the store holds for the shift, counted from the index: time
  /// proportional to the shift, so not for a status.
  public func sampleCount(ofShift shiftID: Int64) throws(StoreError) -> Int {
    try database.withStatement("SELECT count(*) FROM samples WHERE shift_id = ?") { (s) throws(StoreError) -> Int in
      try s.bind(shiftID, at: 1)
      return try s.step() ? Int(s.int64(0)) : 0
    }
  }

  // MARK: - Rows

  static let sampleColumns = "id, \(sampleValueColumns)"

  /// The columns `sample(from:firstColumn:)` decodes, in order.
  static let sampleValueColumns =
    """
    capture_session, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm, speed_cm_s, course_cdeg, held, \
    accuracy_assumed, dated_by_arrival
    """

  static func encode(_ samples: [RouteSample]) throws(StoreError) -> [EncodedSample] {
    var encoded: [EncodedSample] = []
    encoded.reserveCapacity(samples.count)
    for sample in samples { encoded.append(try EncodedSample(sample)) }
    return encoded
  }

  /// Inserts rows inside the caller's transaction.
  func insertRows(
    _ rows: [EncodedSample], sessions: [CaptureSessionID?], shiftID: Int64
  ) throws(StoreError) -> [Int64] {
    // Sessions first: resolving one may run statements of its own.
    var sessionRows: [Int64?] = []
    sessionRows.reserveCapacity(rows.count)
    for (row, session) in zip(rows, sessions) {
      if let session {
        sessionRows.append(try sessionRow(for: session, beginningAt: row.fixTimeMilliseconds, shiftID: shiftID))
      } else {
        sessionRows.append(nil)
      }
    }
    return try database.withStatement(
      """
      INSERT INTO samples (shift_id, capture_session, fix_time_ms, latitude_e7, longitude_e7,
        horizontal_accuracy_cm, speed_cm_s, course_cdeg, held, accuracy_assumed, dated_by_arrival)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """
    ) { (s) throws(StoreError) -> [Int64] in
      var ids: [Int64] = []
      ids.reserveCapacity(rows.count)
      for (row, sessionRow) in zip(rows, sessionRows) {
        try s.bind(shiftID, at: 1)
        try s.bind(sessionRow, at: 2)
        try s.bind(row.fixTimeMilliseconds, at: 3)
        try s.bind(row.latitudeE7, at: 4)
        try s.bind(row.longitudeE7, at: 5)
        try s.bind(row.horizontalAccuracyCentimetres, at: 6)
        try s.bind(row.speedCentimetresPerSecond, at: 7)
        try s.bind(row.courseCentidegrees, at: 8)
        try s.bind(Int64(row.held ? 1 : 0), at: 9)
        try s.bind(Int64(row.accuracyAssumed ? 1 : 0), at: 10)
        try s.bind(Int64(row.datedByArrival ? 1 : 0), at: 11)
        try s.step()
        s.reset()
        ids.append(database.lastInsertRowID)
      }
      return ids
    }
  }

  /// Calls `body` with each row of the shift after `rowID`, in row order, until it
  /// returns false.
  func readRows(
    ofShift shiftID: Int64, after rowID: Int64, _ body: (Int64, consuming RouteSample) -> Bool
  ) throws(StoreError) {
    try database.withStatement(
      "SELECT \(Self.sampleColumns) FROM samples WHERE shift_id = ? AND id > ? ORDER BY id"
    ) { (s) throws(StoreError) in
      try s.bind(shiftID, at: 1)
      try s.bind(rowID, at: 2)
      while try s.step() {
        guard body(s.int64(0), try sample(from: s)) else { return }
      }
    }
  }

  /// Calls `body` with each of the shift's samples in row order, until it returns false:
  /// what the one pass reads, with no row ids, since every column read costs once per row.
  func readSamples(ofShift shiftID: Int64, _ body: (consuming RouteSample) -> Bool) throws(StoreError) {
    try database.withStatement(
      "SELECT \(Self.sampleValueColumns) FROM samples WHERE shift_id = ? ORDER BY id"
    ) { (s) throws(StoreError) in
      try s.bind(shiftID, at: 1)
      while try s.step() {
        guard body(try sample(from: s, firstColumn: 0)) else { return }
      }
    }
  }

  /// Decodes the columns of `sampleValueColumns`, the first of them at `first` (1 after
  /// the id of `sampleColumns`).
  func sample(from s: Statement, firstColumn first: Int32 = 1) throws(StoreError) -> RouteSample {
    var session: CaptureSessionID?
    if let row = s.optionalInt64(first) { session = try captureSessionID(ofRow: row) }
    let columns = EncodedSample(
      fixTimeMilliseconds: s.int64(first + 1), latitudeE7: s.int64(first + 2), longitudeE7: s.int64(first + 3),
      horizontalAccuracyCentimetres: s.int64(first + 4), speedCentimetresPerSecond: s.optionalInt64(first + 5),
      courseCentidegrees: s.optionalInt64(first + 6), held: s.int64(first + 7) != 0,
      accuracyAssumed: s.int64(first + 8) != 0, datedByArrival: s.int64(first + 9) != 0)
    return columns.routeSample(session: session)
  }

  /// `sample` as the store will read it back: time to the millisecond, position to 1e-7
  /// degree, accuracy and speed to the centimetre, course to a hundredth of a degree.
  /// Throws what `append` would for a sample it cannot store.
  public static func storedForm(of sample: RouteSample) throws(StoreError) -> RouteSample {
    try EncodedSample(sample).routeSample(session: sample.captureSessionID)
  }
}
