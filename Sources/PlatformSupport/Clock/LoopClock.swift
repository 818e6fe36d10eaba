import FoundationEssentials

/// The daemon's clocks as its loop reads them: the wall and monotonic clocks whenever
/// asked, whether the wall clock is synchronised once per tick. That answer changes when
/// NTP or chrony takes hold, seconds apart at the most, while gpsd reports several times a
/// second: one adjtimex call a tick instead of one a report.
///
/// Loop thread only.
public final class LoopClock {
  public let clocks: Clocks
  private var isSynchronised: Bool

  public init(_ clocks: Clocks = .system) {
    self.clocks = clocks
    isSynchronised = clocks.isWallClockSynchronised()
  }

  /// Both clocks now, with the synchronisation last read by `tick()`.
  public func now() -> ClockReading {
    ClockReading(wall: clocks.wall(), monotonic: clocks.monotonic(), isWallClockSynchronised: isSynchronised)
  }

  /// The monotonic clock alone, for a deadline (a timer, an idle client), which needs no
  /// wall clock.
  public func monotonic() -> Double { clocks.monotonic() }

  /// Reads the kernel's word on synchronisation again; the runtime calls it once a tick,
  /// before the components' ticks, and passes them the reading.
  public func tick() -> ClockReading {
    isSynchronised = clocks.isWallClockSynchronised()
    return now()
  }
}
