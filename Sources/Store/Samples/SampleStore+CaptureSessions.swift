import DashPilotCore
import FoundationEssentials

extension SampleStore {
  /// The reason a commit observer is given for a session begun by its first stored sample
  /// rather than by an explicit `beginCaptureSession`.
  public static let sessionBegunByFirstSample = "first_sample"

  /// Records that capture session `id` began at `startedAt`, capturing into `shiftID` (the
  /// open shift when nil), and why (capture's code, such as "fixes_started"). The row keeps
  /// neither; the commit observer is told both, so the fleet hears why and for which shift.
  public func beginCaptureSession(
    _ id: CaptureSessionID, at startedAt: Date, shiftID: Int64? = nil, reason: String = "started"
  ) throws(StoreError) {
    let start = try EncodedSample.milliseconds(startedAt, role: "capture session start")
    try write("begin capture session \(id)") { () throws(StoreError) in
      if try storedCaptureSession(id) != nil { throw .captureSessionAlreadyBegun(id) }
      _ = try insertCaptureSession(id, startMilliseconds: start, shiftID: try shiftOrOpenShift(shiftID), reason: reason)
    }
  }

  /// Records that capture session `id` ended at `endedAt` and why (capture's code, such as
  /// "connection_lost", "save_failed"), and the receiver it was reading when capture knew
  /// it (`device`). `shiftID` is the shift it captured into (the open shift when nil), for
  /// the commit observer.
  public func endCaptureSession(
    _ id: CaptureSessionID, at endedAt: Date, reason: String, device: String? = nil, shiftID: Int64? = nil
  ) throws(StoreError) {
    let end = try EncodedSample.milliseconds(endedAt, role: "capture session end")
    try write("end capture session \(id)") { () throws(StoreError) in
      guard let session = try storedCaptureSession(id) else { throw .captureSessionNotFound(id) }
      guard session.endedAt == nil else { throw .captureSessionAlreadyEnded(id) }
      try database.withStatement(
        "UPDATE capture_sessions SET ended_at_ms = ?, end_reason = ?, end_device = ? WHERE session_key = ?"
      ) { (s) throws(StoreError) in
        try s.bind(end, at: 1)
        try s.bind(reason, at: 2)
        try s.bind(device, at: 3)
        try s.bind(id.rawValue, at: 4)
        try s.step()
      }
      if let commitObserver {
        try commitObserver.captureSessionEnded(
          id, at: EncodedSample.date(milliseconds: end), shiftID: try shiftOrOpenShift(shiftID), reason: reason,
          in: currentTransaction)
      }
    }
  }

  /// Ends every session still marked running: after a crash or power cut none of them is,
  /// and the daemon says so on start. Returns the sessions it ended. Capture runs only
  /// inside the open shift, so a session left running belonged to the shift still open.
  @discardableResult
  public func endRunningCaptureSessions(at endedAt: Date, reason: String) throws(StoreError) -> [CaptureSessionID] {
    let end = try EncodedSample.milliseconds(endedAt, role: "capture session end")
    return try write("end running capture sessions") { () throws(StoreError) -> [CaptureSessionID] in
      let running = try captureSessions().filter { $0.endedAt == nil }.map(\.id)
      try database.withStatement(
        "UPDATE capture_sessions SET ended_at_ms = max(?, started_at_ms), end_reason = ? WHERE ended_at_ms IS NULL"
      ) { (s) throws(StoreError) in
        try s.bind(end, at: 1)
        try s.bind(reason, at: 2)
        try s.step()
      }
      if let commitObserver, !running.isEmpty {
        let openShiftID = try shiftOrOpenShift(nil)
        for session in running {
          let ended = try storedCaptureSession(session)?.endedAt ?? EncodedSample.date(milliseconds: end)
          try commitObserver.captureSessionEnded(
            session, at: ended, shiftID: openShiftID, reason: reason, in: currentTransaction)
        }
      }
      return running
    }
  }

  public func captureSession(_ id: CaptureSessionID) throws(StoreError) -> StoredCaptureSession? {
    try storedCaptureSession(id)
  }

  /// Every capture session, in the order they began.
  public func captureSessions() throws(StoreError) -> [StoredCaptureSession] {
    try database.withStatement(
      "SELECT \(Self.sessionColumns) FROM capture_sessions ORDER BY started_at_ms, id"
    ) { (s) throws(StoreError) -> [StoredCaptureSession] in
      var result: [StoredCaptureSession] = []
      while try s.step() { result.append(Self.captureSession(from: s)) }
      return result
    }
  }

  // MARK: - Rows

  /// `shiftID`, or the open shift's id when nil (nil when none is open either).
  private func shiftOrOpenShift(_ shiftID: Int64?) throws(StoreError) -> Int64? {
    if let shiftID { return shiftID }
    return try openShift()?.id
  }

  func storedCaptureSession(_ id: CaptureSessionID) throws(StoreError) -> StoredCaptureSession? {
    try database.withStatement(
      "SELECT \(Self.sessionColumns) FROM capture_sessions WHERE session_key = ?"
    ) { (s) throws(StoreError) -> StoredCaptureSession? in
      try s.bind(id.rawValue, at: 1)
      return try s.step() ? Self.captureSession(from: s) : nil
    }
  }

  static let sessionColumns = "session_key, started_at_ms, ended_at_ms, end_reason, end_device"

  static func captureSession(from s: Statement) -> StoredCaptureSession {
    StoredCaptureSession(
      id: CaptureSessionID(s.text(0) ?? ""), startedAt: EncodedSample.date(milliseconds: s.int64(1)),
      endedAt: s.optionalInt64(2).map(EncodedSample.date(milliseconds:)), endReason: s.text(3), endDevice: s.text(4))
  }

  func insertCaptureSession(
    _ id: CaptureSessionID, startMilliseconds: Int64, shiftID: Int64?, reason: String
  ) throws(StoreError) -> Int64 {
    let row = try database.withStatement(
      "INSERT INTO capture_sessions (session_key, started_at_ms) VALUES (?, ?)"
    ) { (s) throws(StoreError) -> Int64 in
      try s.bind(id.rawValue, at: 1)
      try s.bind(startMilliseconds, at: 2)
      try s.step()
      return database.lastInsertRowID
    }
    try commitObserver?.captureSessionBegan(
      id, at: EncodedSample.date(milliseconds: startMilliseconds), shiftID: shiftID, reason: reason,
      in: currentTransaction)
    return row
  }

  /// The row of session `id`, beginning it at `startMilliseconds` when it was never begun
  /// (inside the caller's transaction).
  func sessionRow(
    for id: CaptureSessionID, beginningAt startMilliseconds: Int64, shiftID: Int64?
  ) throws(StoreError) -> Int64 {
    if let cached = sessionRowsByID[id] { return cached }
    let existing = try database.withStatement("SELECT id FROM capture_sessions WHERE session_key = ?") {
      (s) throws(StoreError) -> Int64? in
      try s.bind(id.rawValue, at: 1)
      return try s.step() ? s.int64(0) : nil
    }
    let row: Int64
    if let existing {
      row = existing
    } else {
      row = try insertCaptureSession(
        id, startMilliseconds: startMilliseconds, shiftID: shiftID, reason: Self.sessionBegunByFirstSample)
    }
    sessionRowsByID[id] = row
    sessionIDsByRow[row] = id
    return row
  }

  /// The identifier of session row `row`. A row that names no session (only a damaged file
  /// could hold one) stands for a session of its own, so continuity is never invented.
  func captureSessionID(ofRow row: Int64) throws(StoreError) -> CaptureSessionID {
    // Consecutive rows nearly always share their session: skip the hashing for them.
    if let last = lastSessionResolved, last.row == row { return last.id }
    if let cached = sessionIDsByRow[row] {
      lastSessionResolved = (row, cached)
      return cached
    }
    let key = try database.withStatement("SELECT session_key FROM capture_sessions WHERE id = ?") {
      (s) throws(StoreError) -> String? in
      try s.bind(row, at: 1)
      return try s.step() ? s.text(0) : nil
    }
    let id = CaptureSessionID(key ?? "missing-capture-session-\(row)")
    if key != nil {
      sessionIDsByRow[row] = id
      sessionRowsByID[id] = row
    }
    return id
  }
}
