import Foundation
import PlatformSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's clock seam against the machine's real clocks: tests elsewhere hand the
/// daemon clocks of their own, so what `Clocks.system` and `LoopClock` read is checked here.
struct ClocksTests {
  static func kernelMonotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  @Test("the system wall clock is Date() and the monotonic one CLOCK_MONOTONIC")
  func systemClocks() {
    let wallBefore = Date()
    let wall = Clocks.system.wall()
    let wallAfter = Date()
    #expect(wallBefore <= wall && wall <= wallAfter)
    let before = Self.kernelMonotonic()
    let monotonic = Clocks.system.monotonic()
    let after = Self.kernelMonotonic()
    #expect(before <= monotonic && monotonic <= after)
  }

  @Test("the system's synchronisation is the kernel's answer, through LoopClock too")
  func systemSynchronisation() throws {
    let kernel = try WallClockSynchronisationTests.kernelSaysSynchronised()
    #expect(Clocks.system.isWallClockSynchronised() == kernel)
    let clock = LoopClock()
    #expect(clock.now().isWallClockSynchronised == kernel)
    #expect(clock.tick().isWallClockSynchronised == kernel)
    let before = Self.kernelMonotonic()
    let reading = clock.now()
    #expect(before <= reading.monotonic && reading.monotonic <= Self.kernelMonotonic())
  }

  @Test("LoopClock asks about synchronisation once a tick, however often it is read")
  func synchronisationCachedPerTick() {
    let state = Mutex((calls: 0, synchronised: false))
    let clocks = Clocks(
      wall: { Date(timeIntervalSince1970: 1_700_000_000) }, monotonic: { 42 },
      isWallClockSynchronised: {
        state.withLock {
          $0.calls += 1
          return $0.synchronised
        }
      })
    let clock = LoopClock(clocks)
    for _ in 0..<100 { #expect(clock.now().synchronisedWall == nil) }
    #expect(state.withLock { $0.calls } == 1)
    state.withLock { $0.synchronised = true }
    #expect(clock.now().isWallClockSynchronised == false)  // until the next tick
    #expect(
      clock.tick()
        == ClockReading(wall: Date(timeIntervalSince1970: 1_700_000_000), monotonic: 42, isWallClockSynchronised: true))
    #expect(clock.now().synchronisedWall == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(state.withLock { $0.calls } == 2)
  }
}
