import FoundationEssentials

/// Judges how old a fix was when it arrived, so that staleness works on a box whose wall
/// clock is wrong (no RTC: the clock is years off until NTP or the receiver sets it) and on
/// a recorded log replayed with old timestamps. Pure: the caller passes every time in.
///
/// The rule:
/// 1. Each fix has an offset: its arrival on a monotonic clock minus its own timestamp.
///    Transport delay only ever adds to the offset, so the smallest offset seen in the
///    recent past (`window` seconds of arrivals) belongs to the freshest fix, and is the
///    learned relation between the receiver's time and the monotonic clock.
/// 2. The learned age of a fix is its offset minus that minimum: how much later than the
///    freshest recent fix it arrived. Neither clock has to be right for this, only steady.
///    The first fix of a run is age 0 by construction: there is nothing to compare with.
/// 3. Only when the caller knows the wall clock is synchronised (NTP or the receiver set
///    it) does the wall clock take part: wall age = wall now − fix time. If it is within
///    `maximumClockDisagreement` the receiver and the wall clock share a time base, and the
///    age is the larger of the two (the wall clock also catches a stream that is late from
///    its first fix). If it is further off, the fixes are on a foreign time base (a log
///    replayed with its own timestamps, a receiver with a wrong week number) and only the
///    learned age counts: a wall clock cannot judge them.
/// 4. The window forgets: an offset older than `window` no longer counts, so a jump of the
///    receiver's time (a new gpsd replaying another log) is relearned within the window and
///    staleness never locks capture out for longer than that. `reset()` forgets at once
///    (a new gpsd connection, another device).
/// 5. A fix claiming to be newer than the learned relation allows (its offset more than
///    `jumpTolerance` below the window's minimum) is not believed on its own word: a single
///    fix dated years ahead would otherwise become the reference and make every true fix
///    after it look stale (and, once kept, precede it). Its age comes back negative, which
///    the filter rejects; only when the next fix agrees with it is the jump real (a receiver
///    that corrected its week number), and the relation is learned again from the two.
public struct FixAgeEstimator: Sendable, Hashable {
  /// How long an observed offset counts towards the minimum, in monotonic seconds.
  public var window: TimeInterval
  /// How far a synchronised wall clock may disagree with fix time before the fixes are
  /// taken to be on a foreign time base.
  public var maximumClockDisagreement: TimeInterval

  /// Offsets in arrival order with increasing values: the front is the window's minimum
  /// (a monotonic queue, so each fix costs O(1) amortised).
  private var offsets: [Observation] = []
  private var head = 0
  /// How much newer than the learned relation a fix may claim to be before it needs a
  /// second fix to agree with it. Five minutes: a receiver that flushes buffered fixes and
  /// then catches up is learned at once, while a date years (or a GPS week) ahead is not.
  /// A wrong date closer than this costs at most its own size: true fixes count as stale,
  /// then as preceding it, until time passes it.
  public var jumpTolerance: TimeInterval = 300
  /// A fix that claimed a jump forwards, waiting for the next to confirm it.
  private var suspectedJump: Observation?

  struct Observation: Sendable, Hashable {
    var arrival: Double
    var offset: Double
  }

  public init(window: TimeInterval = 120, maximumClockDisagreement: TimeInterval = 300) {
    self.window = window
    self.maximumClockDisagreement = maximumClockDisagreement
  }

  /// Forgets everything learned.
  public mutating func reset() {
    offsets.removeAll(keepingCapacity: true)
    head = 0
    suspectedJump = nil
  }

  /// Learns from a fix stamped `fixTime` that arrived at `arrival` (monotonic seconds) and
  /// returns its age in seconds. `synchronisedWallClock` is the wall clock's reading at
  /// arrival, passed only when the caller knows it is synchronised. Non-finite input gives
  /// nil (age unknown) and teaches nothing.
  public mutating func age(
    ofFixAt fixTime: Date, arrival: Double, synchronisedWallClock: Date? = nil
  ) -> TimeInterval? {
    let fixSeconds = fixTime.timeIntervalSince1970
    guard fixSeconds.isFinite, arrival.isFinite else { return nil }
    let offset = arrival - fixSeconds
    // Forget offsets that left the window (and any from a monotonic clock that went back).
    while head < offsets.count,
      arrival - offsets[head].arrival > window || offsets[head].arrival > arrival
    {
      head += 1
    }
    let observation = Observation(arrival: arrival, offset: offset)
    if head < offsets.count, offset < offsets[head].offset - jumpTolerance {
      if let suspected = suspectedJump, abs(suspected.offset - offset) <= jumpTolerance {
        // Two fixes in a row agree: the receiver's time really moved. Learn it afresh.
        offsets = suspected.offset <= offset ? [suspected, observation] : [observation]
        head = 0
        suspectedJump = nil
        return offset - offsets[0].offset
      }
      suspectedJump = observation
      return offset - offsets[head].offset
    }
    suspectedJump = nil
    while offsets.count > head, let last = offsets.last, last.offset >= offset {
      offsets.removeLast()
    }
    offsets.append(observation)
    if head > 64, head * 2 > offsets.count {
      offsets.removeFirst(head)
      head = 0
    }
    let learned = offset - offsets[head].offset
    guard let wall = synchronisedWallClock?.timeIntervalSince1970, wall.isFinite else {
      return learned
    }
    let wallAge = wall - fixSeconds
    guard abs(wallAge) <= maximumClockDisagreement else { return learned }
    return max(learned, wallAge)
  }
}
