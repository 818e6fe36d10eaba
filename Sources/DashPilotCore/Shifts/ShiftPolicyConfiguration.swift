import FoundationEssentials

/// The numbers of `ShiftPolicy`, each a setting of `[Shift]`.
public struct ShiftPolicyConfiguration: Sendable, Hashable {
  /// A shift ends when the vehicle has not moved for this long (seconds), standing with the
  /// receiver reporting or without any fix. 45 minutes: a delivery shift's stops are 2-15
  /// minutes and its lunch about 40; a longer stand is the end of the working day, or a
  /// break the driver is not paid for.
  public var endAfterStop: TimeInterval = 45 * 60
  /// A shift starts when a move takes the vehicle this far (metres) from where it stood,
  /// whatever the speed. 200 m: a parked receiver records at most 25 m of wander, and a cold
  /// start's first fix can sit 110 m off (Fixtures/truth/cold-start); twice that is never
  /// noise, while a car leaving a depot or creeping in traffic covers it in a minute or two.
  public var startDistance: Double = 200
  /// A pending movement that comes back within this distance (metres) of where the
  /// vehicle stood, and stands there, was the receiver's wander or a parking manoeuvre: it
  /// is forgotten. A quarter of `startDistance` (50 m by default), twice the 25 m a parked
  /// receiver records at most.
  public var returnDistance: Double { startDistance / 4 }
  /// The most samples that wait in memory for a start to be decided (or for a stop to be
  /// decided within an open shift). Far more than a start needs (200 m is a few dozen
  /// kept moves); only a vehicle circling within 200 m of where it stood for an hour
  /// reaches it, and then the oldest moves are let go.
  public var pendingLimit: Int = 10_000
  /// After a restart with no fix yet, a synchronised wall clock may end the shift
  /// (`capture_lost`) when it reads at least `endAfterStop` past the last kept fix, but
  /// only up to this much past it (seconds): a wall clock a day or more past the fixes
  /// may be on another time base than the receiver (a replayed log, a receiver dated 1024
  /// weeks off), and then the next fix decides, a minute later at most.
  public var wallClockTrust: TimeInterval = 24 * 3600
  /// `[Shift] EndAtPlace=`: where a shift ends sooner. A vehicle that stands still inside
  /// it, the receiver reporting, for `endAfterStopAtPlace` has ended its day there (the
  /// depot), whatever `endAfterStop` says. Nil: no such place.
  public var endPlace: Place?
  /// `[Shift] EndAfterStopAtPlace=`: 2 minutes, the shortest stop, so a driver back at the
  /// depot is off the clock once parked, while a drive through the depot's yard is not.
  public var endAfterStopAtPlace: TimeInterval = 120

  public init(endAfterStop: TimeInterval = 45 * 60, startDistance: Double = 200) {
    self.endAfterStop = endAfterStop
    self.startDistance = startDistance
  }
}
