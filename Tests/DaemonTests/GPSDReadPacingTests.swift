import Testing

@testable import Daemon

/// When the loop leaves gpsd's socket unread: explicit turn times, as the loop's monotonic
/// clock would give them.
struct GPSDReadPacingTests {
  @Test func aTenHertzReceiverIsReadEveryFifthOfASecond() {
    var pacing = GPSDReadPacing()
    // The first turn of a session: nothing known of its pace.
    #expect(pacing.turnEnded(startedAt: 100.0, drained: true) == nil)
    // The next cycle, 0.1 s later: a receiver's pace.
    #expect(pacing.turnEnded(startedAt: 100.1, drained: true) == 0.2)
    // Read again 0.2 s later (two cycles): still its pace.
    #expect(pacing.turnEnded(startedAt: 100.3, drained: true) == 0.2)
  }

  @Test func aFloodIsReadAsItComes() {
    var pacing = GPSDReadPacing()
    #expect(pacing.turnEnded(startedAt: 10.000, drained: true) == nil)
    #expect(pacing.turnEnded(startedAt: 10.001, drained: true) == nil)
    #expect(pacing.turnEnded(startedAt: 10.049, drained: true) == nil)
    // 50 ms apart is a receiver's pace (20 Hz).
    #expect(pacing.turnEnded(startedAt: 10.099, drained: true) == 0.2)
  }

  @Test func aTurnThatLeftReportsUnreadIsFollowedAtOnce() {
    var pacing = GPSDReadPacing()
    #expect(pacing.turnEnded(startedAt: 5.0, drained: true) == nil)
    #expect(pacing.turnEnded(startedAt: 5.2, drained: false) == nil)
  }

  @Test func aSlowReceiverAndANewSessionAreReadWhenReady() {
    var pacing = GPSDReadPacing()
    #expect(pacing.turnEnded(startedAt: 1.0, drained: true) == nil)
    // 1 Hz: its next report is far off anyway.
    #expect(pacing.turnEnded(startedAt: 2.0, drained: true) == nil)
    #expect(pacing.turnEnded(startedAt: 2.499, drained: true) == 0.2)
    pacing.reset()
    #expect(pacing.turnEnded(startedAt: 2.6, drained: true) == nil)
  }
}
