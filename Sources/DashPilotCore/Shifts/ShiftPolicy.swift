import FoundationEssentials

/// When a shift starts and ends on a box with nobody at a terminal, and which kept samples
/// belong to it. Fed what capture kept (moves and held samples, in order), capture
/// sessions ending and the passage of time; it answers with `ShiftDecision`s. Pure: every
/// time is passed in, and it reads no clock. The daemon and `replay --shifts movement`
/// run this one policy (through `ShiftRecorder`).
///
/// - Start: no shift open, `MovementWatch` holds where the vehicle stood and the movement
///   since; a move `startDistance` from there starts a shift whose window begins at the
///   movement's first fix and which holds every sample since (nothing is lost, nothing
///   from before counts).
/// - End: no move for `endAfterStop` ends a shift started on movement at its last moving
///   fix: `stopped` when capture went on all the while (the receiver kept reporting a
///   vehicle standing; `stopped_at_place`, after only `endAfterStopAtPlace`, when its last
///   move was inside `endPlace`), `capture_lost` when it was interrupted (box off, receiver
///   unplugged, gpsd gone, a restart), judged by the next kept fix's time or by the
///   receiver's time passing. A shorter interruption keeps the shift: a new capture
///   session, and a gap. The samples kept while the vehicle stands wait here and go into
///   the shift only when it moves again, so a shift that ends has no standing after its
///   window (no false end gap, nothing of the stop in its figure).
/// - By hand: a shift started by hand holds every sample at once, as it always has, and
///   ends only by hand; after a shift is ended by hand, nothing starts one until the vehicle
///   has not moved for `endAfterStop`.
public struct ShiftPolicy: Sendable, Hashable {
  public typealias Configuration = ShiftPolicyConfiguration

  /// The open shift, as the policy follows it.
  public struct OpenShift: Sendable, Hashable {
    public var startedBy: ShiftStartCause
    /// The shift's last move: where it ends when the vehicle does not move again.
    public var lastMove: RouteSample?
    /// Kept samples since the last move that were no move (held samples, a session's
    /// first fix): the shift's only if it moves again.
    public var standing: [RouteSample] = []
    /// Whether capture was interrupted since the last move (a session ended or a new one
    /// began, or the daemon restarted).
    public var interrupted = false
    /// A restarted daemon resumed the shift, and no sample has been kept since.
    public var waitingForFix = false
  }

  public enum Phase: Sendable, Hashable {
    /// No shift open: watching for the vehicle to move.
    case watching(MovementWatch)
    case open(OpenShift)
  }

  /// What `status` says of the open shift.
  public struct Status: Sendable, Hashable {
    public var startedBy: ShiftStartCause
    /// The last moving fix, while the vehicle has not moved since (it stands, or capture
    /// was interrupted); nil while it moves, and for a shift started by hand.
    public var stoppedSince: Date?
    /// The shift ends if the vehicle does not move for this long (nil: only by hand).
    public var endsAfterStop: TimeInterval?
    /// Resumed after a restart: the next fix decides whether it goes on.
    public var waitingForFix: Bool

    public init(startedBy: ShiftStartCause, stoppedSince: Date?, endsAfterStop: TimeInterval?, waitingForFix: Bool) {
      self.startedBy = startedBy
      self.stoppedSince = stoppedSince
      self.endsAfterStop = endsAfterStop
      self.waitingForFix = waitingForFix
    }
  }

  public private(set) var configuration: Configuration
  public private(set) var phase: Phase
  /// The capture session of the last kept sample: a sample of another session is the
  /// first after an interruption and shows nothing of how the vehicle got there.
  private var lastSession: CaptureSessionID?

  /// No shift open, nothing seen yet.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    phase = .watching(MovementWatch())
  }

  /// A restarted daemon with a shift still open, started by `startedBy`, whose last stored
  /// row is `lastRow` (a shift started on movement always ends its rows with a move).
  public init(
    configuration: Configuration = Configuration(), resuming startedBy: ShiftStartCause, lastRow: RouteSample?
  ) {
    self.configuration = configuration
    phase = .open(OpenShift(startedBy: startedBy, lastMove: lastRow, interrupted: true, waitingForFix: true))
  }

  public var status: Status? {
    guard case .open(let shift) = phase else { return nil }
    guard shift.startedBy == .movement else {
      return Status(startedBy: shift.startedBy, stoppedSince: nil, endsAfterStop: nil, waitingForFix: false)
    }
    let stopped = !shift.standing.isEmpty || shift.interrupted
    return Status(
      startedBy: shift.startedBy, stoppedSince: stopped ? shift.lastMove?.timestamp : nil,
      endsAfterStop: limit(shift).seconds, waitingForFix: shift.waitingForFix)
  }

  // MARK: - What capture did

  /// One sample capture kept.
  public mutating func kept(_ sample: RouteSample) -> [ShiftDecision] {
    let newSession = sample.captureSessionID == nil || sample.captureSessionID != lastSession
    lastSession = sample.captureSessionID
    return apply(sample, isMove: !sample.isHeld && !newSession, newSession: newSession)
  }

  /// A capture session ended: until the vehicle moves again, it was not seen standing.
  public mutating func captureSessionEnded() {
    guard case .open(var shift) = phase else { return }
    shift.interrupted = true
    phase = .open(shift)
  }

  private mutating func apply(_ sample: RouteSample, isMove: Bool, newSession: Bool) -> [ShiftDecision] {
    switch phase {
    case .watching(var watch):
      let start = watch.saw(sample, isMove: isMove, configuration: configuration)
      guard let start else {
        phase = .watching(watch)
        return []
      }
      phase = .open(OpenShift(startedBy: .movement, lastMove: sample))
      return [.start(at: start.at, samples: start.samples, displacement: start.displacement)]
    case .open(var shift):
      guard shift.startedBy == .movement else { return [.keep([sample])] }
      shift.waitingForFix = false
      if newSession { shift.interrupted = true }
      if let last = shift.lastMove, sample.timestamp.timeIntervalSince(last.timestamp) >= limit(shift).seconds {
        // The first sample after so long shows where the vehicle is, not how it got there:
        // it is where it stands, so one sample never both ends a shift and starts one.
        return end(shift, cause: limit(shift).cause) + apply(sample, isMove: false, newSession: newSession)
      }
      guard isMove || shift.lastMove == nil else {
        shift.standing.append(sample)
        if shift.standing.count > configuration.pendingLimit { shift.standing.removeFirst() }
        phase = .open(shift)
        return []
      }
      let written = shift.standing + [sample]
      shift.standing = []
      shift.lastMove = sample
      shift.interrupted = false
      phase = .open(shift)
      return [.keep(written)]
    }
  }

  // MARK: - Time

  /// The receiver's time now (the daemon's tick: the last kept fix's time carried on the
  /// monotonic clock; replay: each report's time).
  public mutating func timePassed(receiverTime now: Date) -> [ShiftDecision] {
    guard case .open(let shift) = phase, shift.startedBy == .movement, let last = shift.lastMove,
      now.timeIntervalSince(last.timestamp) >= limit(shift).seconds
    else { return [] }
    return end(shift, cause: limit(shift).cause)
  }

  /// How long the open shift may stand before it ends, and why it would: `EndAfterStopAtPlace`
  /// when its last move was inside `endPlace` and capture has gone on since (a vehicle seen
  /// standing there), else `EndAfterStop`.
  private func limit(_ shift: OpenShift) -> (seconds: TimeInterval, cause: ShiftEndCause) {
    if shift.interrupted { return (configuration.endAfterStop, .captureLost) }
    if let place = configuration.endPlace, let last = shift.lastMove, place.area.contains(last.coordinate) {
      return (configuration.endAfterStopAtPlace, .stoppedAtPlace)
    }
    return (configuration.endAfterStop, .stopped)
  }

  /// A synchronised wall clock, while a resumed shift waits for its first fix: it may
  /// decide before the fix does (see `Configuration.wallClockTrust`).
  public mutating func timePassed(synchronisedWallClock now: Date) -> [ShiftDecision] {
    guard case .open(let shift) = phase, shift.startedBy == .movement, shift.waitingForFix,
      let last = shift.lastMove
    else { return [] }
    let since = now.timeIntervalSince(last.timestamp)
    guard since >= configuration.endAfterStop, since <= configuration.wallClockTrust else { return [] }
    return end(shift, cause: .captureLost)
  }

  private mutating func end(_ shift: OpenShift, cause: ShiftEndCause) -> [ShiftDecision] {
    phase = .watching(MovementWatch(anchor: shift.standing.last ?? shift.lastMove))
    guard let last = shift.lastMove else { return [] }
    return [.end(at: last.timestamp, cause: cause)]
  }

  /// The places were replaced (`places.load`): `EndAtPlace` is now `place`, judged from the
  /// next sample or tick on.
  public mutating func replaceEndPlace(_ place: Place?) {
    configuration.endPlace = place
  }

  // MARK: - By hand, and the end of a log

  /// A shift was opened by hand: every sample kept from now on is its own.
  public mutating func startedByHand() {
    phase = .open(OpenShift(startedBy: .manual))
  }

  /// The open shift was ended by hand at `time`: returns the standing it holds (a shift
  /// started on movement), to be written before it ends so its window ends on a row.
  public mutating func endedByHand(at time: Date) -> [RouteSample] {
    guard case .open(let shift) = phase else { return [] }
    phase = .watching(MovementWatch(quietSince: time))
    return shift.startedBy == .movement ? shift.standing : []
  }

  /// The log a replay reads has ended: an open shift ends at its last kept fix, its last
  /// move (what stood after it is dropped, as a box switched off there would drop it).
  public mutating func logEnded() -> [ShiftDecision] {
    guard case .open(let shift) = phase else { return [] }
    return end(shift, cause: .endOfLog)
  }
}
