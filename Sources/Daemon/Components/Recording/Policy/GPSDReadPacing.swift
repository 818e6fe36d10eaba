/// How soon the loop reads gpsd's socket again after a turn that read it all. At a
/// receiver's pace (10 Hz: a TPV, a SKY and a GST every 100 ms) each report used to wake
/// the loop on its own, and what a wake costs is not the reading but the daemon's code and
/// data brought back into the CPU's caches after the sleep: at 100 times real time a
/// report cost 13 µs, at real time 180 µs (`bench e2e`). Left unread for `interval`, the
/// socket holds two cycles when the loop next reads it, and the second costs what a warm
/// one does. A fix then waits at most `interval` in the socket, stamped on arrival as it is
/// read: far finer than any rule judges arrivals by (a fix is stale after seconds). Turns
/// closer together than `floodGap` are a flood (a log played fast, a backlog after a
/// stall), read as it comes, so the socket never holds more than a receiver's few cycles;
/// turns further apart than `slowGap` are a slow receiver (1 Hz), whose next report is far
/// off anyway.
struct GPSDReadPacing {
  static let interval: Double = 0.2
  static let floodGap: Double = 0.05
  static let slowGap: Double = 0.5

  /// When the last turn that read gpsd began (monotonic seconds).
  private var lastTurn: Double?

  /// A turn that read gpsd began at `start` (monotonic seconds); `drained`: it read all the
  /// socket held. The seconds to leave the socket unread, or nil to read it when ready.
  mutating func turnEnded(startedAt start: Double, drained: Bool) -> Double? {
    defer { lastTurn = start }
    guard drained, let last = lastTurn else { return nil }
    let gap = start - last
    return gap >= Self.floodGap && gap < Self.slowGap ? Self.interval : nil
  }

  /// A new gpsd session: nothing is known of its pace.
  mutating func reset() { lastTurn = nil }
}
