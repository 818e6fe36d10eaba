import FoundationEssentials

/// The three clocks the daemon reads, as one set, so that every part of it reads the same
/// ones and a test can hand in its own: the wall clock (what a person or a record is told),
/// the monotonic clock (every deadline, interval and latency: it never steps) and the
/// kernel's word on whether the wall clock is synchronised (only then does
/// `FixAgeEstimator` trust it).
public struct Clocks: Sendable {
  public var wall: @Sendable () -> Date
  /// Seconds on a clock that never steps, from an arbitrary origin.
  public var monotonic: @Sendable () -> Double
  public var isWallClockSynchronised: @Sendable () -> Bool

  public init(
    wall: @escaping @Sendable () -> Date, monotonic: @escaping @Sendable () -> Double,
    isWallClockSynchronised: @escaping @Sendable () -> Bool
  ) {
    self.wall = wall
    self.monotonic = monotonic
    self.isWallClockSynchronised = isWallClockSynchronised
  }

  /// The machine's own: `Date()`, CLOCK_MONOTONIC and adjtimex(2).
  public static let system = Clocks(
    wall: { Date() }, monotonic: { MonotonicClock.now() },
    isWallClockSynchronised: { WallClockSynchronisation.isSynchronised() })
}

/// One reading of the daemon's clocks, handed to whatever decides by time (a tick, a fix, a
/// command), so that one decision sees one instant on both clocks.
public struct ClockReading: Sendable, Hashable {
  public var wall: Date
  /// Seconds on the monotonic clock (see `Clocks.monotonic`).
  public var monotonic: Double
  public var isWallClockSynchronised: Bool

  public init(wall: Date, monotonic: Double, isWallClockSynchronised: Bool) {
    self.wall = wall
    self.monotonic = monotonic
    self.isWallClockSynchronised = isWallClockSynchronised
  }

  /// The wall clock when it may be trusted, else nil: what `FixAgeEstimator` is given.
  public var synchronisedWall: Date? { isWallClockSynchronised ? wall : nil }
}
