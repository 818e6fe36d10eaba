import FoundationEssentials

/// Whether a fix that came with no date is dated by when it arrived (`[Capture]
/// DateByArrival=`). A receiver that sends GGA only (or whose RMC fail their checksums)
/// gives gpsd a time of day and no date, so every report comes without `time` and, left
/// alone, every fix is refused. Only the box can date such a fix: by its wall clock when
/// the report arrived, which is right only while that clock is right.
public enum ArrivalDating: String, Sendable, Hashable, CaseIterable {
  /// Date by arrival while the kernel says the wall clock is synchronised (NTP, chrony,
  /// systemd-timesyncd): a box without an RTC boots years off, and a fix dated then would
  /// sit in the wrong day. The default.
  case synchronised
  /// Date by arrival whatever the kernel says: a box whose clock is kept right another
  /// way (an RTC set by hand, a clock the kernel is not told about).
  case always
  /// Never: a fix with no date is refused, as a recorded log's are.
  case never

  /// What becomes of one candidate.
  public enum Decision: Sendable, Hashable {
    /// Judge this candidate: the one given (it has its receiver's time, or no position to
    /// date), or the same fix dated by its arrival and flagged `isDatedByArrival`.
    case judge(FixCandidate)
    /// Refuse it for this reason, counted: it has no date and none may be given.
    case refuse(SampleRejection)
  }

  /// Decides for `candidate`. `arrival` is the wall clock's reading when its report arrived
  /// (nil when none is known: a plain log), `isClockSynchronised` the kernel's word on that
  /// clock, and `receiverDatesFixes` whether this capture session has already had a fix
  /// with the receiver's own time.
  ///
  /// - A fix with a time is never re-dated: the receiver's time is the truth.
  /// - A receiver that dates its fixes and sends one without (an RMC lost to a bad
  ///   checksum) has that one refused: dated by arrival, it would sit up to a second after
  ///   the receiver's own time for it (the report's latency), possibly after the receiver's
  ///   next fix, which the filter would then refuse as out of order. A lost fix costs
  ///   nothing; a true one refused after it would.
  /// - A session that begins undated and later gets the receiver's time keeps what it
  ///   dated; the receiver's fixes then follow (one whose time precedes the last arrival,
  ///   by latency, is refused as out of order, as any repeated time is).
  public func decide(
    _ candidate: FixCandidate, arrival: Date?, isClockSynchronised: Bool, receiverDatesFixes: Bool
  ) -> Decision {
    guard candidate.time == nil, candidate.mode.hasFix, candidate.coordinate.isValid else {
      return .judge(candidate)
    }
    guard let arrival, arrival.timeIntervalSince1970.isFinite, !receiverDatesFixes else {
      return .refuse(.invalidCoordinate)
    }
    switch self {
    case .never: return .refuse(.invalidCoordinate)
    case .synchronised where !isClockSynchronised: return .refuse(.invalidCoordinate)
    case .synchronised, .always:
      var dated = candidate
      dated.time = arrival
      dated.isDatedByArrival = true
      // Dated at arrival, it is as fresh as a fix can be: nothing to judge its age by.
      dated.age = nil
      return .judge(dated)
    }
  }
}
