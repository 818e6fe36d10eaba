import FoundationEssentials

/// No shift is open: where the vehicle stood, and the movement since, until a move takes
/// it `startDistance` from there (a shift, `ShiftPolicy`) or it stands again.
///
/// Only moves count towards a start: a kept sample that is no held sample, in the same
/// capture session as the one before. Capture keeps a move only when the receiver's own
/// speeds carry it, so a cold start's settling, a reflected fix and a parked receiver's
/// wander never get this far; what is left of wander (at most 25 m) comes back to where it
/// stood and is forgotten. A sample that is no move (a held sample, or the first of a
/// session, which shows nothing of how the vehicle got there) is where the vehicle stands:
/// with no movement pending it is the new place it stood. Standing away from where it
/// stood keeps the movement pending (creeping in traffic stops and goes); a movement with
/// no move for `endAfterStop` is over, as a shift would be.
public struct MovementWatch: Sendable, Hashable {
  /// A movement far enough from where the vehicle stood to be a shift.
  public struct Start: Sendable, Hashable {
    /// The movement's first fix: where the shift's window starts.
    public var at: Date
    /// The movement's kept samples, in order: the shift's first rows.
    public var samples: [RouteSample]
    /// How far the last of them is from where the vehicle stood, metres.
    public var displacement: Double
  }

  /// Where the vehicle stood: the latest kept sample that was no move.
  public private(set) var anchor: RouteSample?
  /// The kept samples since the movement began (the first is its first move): they wait
  /// here until the start is decided.
  public private(set) var movement: [RouteSample] = []
  /// The movement's latest move.
  public private(set) var lastMove: Date?
  /// After a shift ended by hand: nothing starts one until the vehicle has not moved for
  /// `endAfterStop` since this time (the driver said the shift is over; the drive home is
  /// not the next one).
  public private(set) var quietSince: Date?

  public init(anchor: RouteSample? = nil, quietSince: Date? = nil) {
    self.anchor = anchor
    self.quietSince = quietSince
  }

  /// Learns from one kept sample; returns the start when this move makes the movement a
  /// shift (the watch is then empty).
  public mutating func saw(
    _ sample: RouteSample, isMove: Bool, configuration: ShiftPolicyConfiguration
  ) -> Start? {
    let time = sample.timestamp
    if let lastMove, time.timeIntervalSince(lastMove) >= configuration.endAfterStop { forgetMovement() }
    if let quiet = quietSince {
      if isMove {
        quietSince = max(quiet, time)
        return nil
      }
      guard time.timeIntervalSince(quiet) >= configuration.endAfterStop else { return nil }
      quietSince = nil
      anchor = sample
      return nil
    }
    guard isMove else {
      stands(at: sample, configuration: configuration)
      return nil
    }
    guard let anchor else {
      self.anchor = sample
      return nil
    }
    movement.append(sample)
    lastMove = time
    trim(to: configuration.pendingLimit)
    let displacement = GeographicDistance.metres(from: anchor.coordinate, to: sample.coordinate)
    guard displacement >= configuration.startDistance, let first = movement.first else { return nil }
    let start = Start(at: first.timestamp, samples: movement, displacement: displacement)
    self = MovementWatch()
    return start
  }

  private mutating func stands(at sample: RouteSample, configuration: ShiftPolicyConfiguration) {
    if let anchor, !movement.isEmpty,
      GeographicDistance.metres(from: anchor.coordinate, to: sample.coordinate) >= configuration.returnDistance
    {
      movement.append(sample)
      trim(to: configuration.pendingLimit)
      return
    }
    anchor = sample
    forgetMovement()
  }

  private mutating func forgetMovement() {
    movement = []
    lastMove = nil
  }

  /// Lets the oldest samples go beyond `limit`, so the movement still begins with a move.
  private mutating func trim(to limit: Int) {
    guard movement.count > limit else { return }
    movement.removeFirst(movement.count - limit)
    while let first = movement.first, first.isHeld { movement.removeFirst() }
  }
}
