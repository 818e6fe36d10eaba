import DashPilotCore
import Testing

@testable import Daemon

@Suite("ClockSynchronisationWatch")
struct ClockSynchronisationWatchTests {
  @Test("a change is said once, at start only when the clock is not synchronised")
  func changes() {
    var watch = ClockSynchronisationWatch()
    let seen = [true, true, false, false, true, true, false].map { watch.observe(synchronised: $0) }
    #expect(seen == [nil, nil, .lost, nil, .gained, nil, .lost])
    var unsynchronised = ClockSynchronisationWatch()
    #expect(unsynchronised.observe(synchronised: false) == .notSynchronisedAtStart)
    #expect(unsynchronised.observe(synchronised: false) == nil)
    #expect(unsynchronised.synchronised == false)
  }

  @Test("the sentence says what DateByArrival= does meanwhile")
  func sentences() {
    let tail =
      ", and shift times are read from a clock that may be wrong: give the box a time source "
      + "(without a real-time clock, the receiver: /usr/share/doc/dashpilot/examples/chrony-gpsd.conf)"
    #expect(
      ClockSynchronisationWatch.sentence(.lost, dateByArrival: .always)
        == "the system clock is no longer synchronised (the kernel says so): fixes that come without a date are "
        + "still dated by their arrival (DateByArrival=always)" + tail)
    #expect(
      ClockSynchronisationWatch.sentence(.notSynchronisedAtStart, dateByArrival: .never)
        == "the system clock is not synchronised (the kernel says so): fixes that come without a date are never "
        + "dated by their arrival (DateByArrival=never)" + tail)
    #expect(
      ClockSynchronisationWatch.sentence(.gained, dateByArrival: .synchronised)
        == "the system clock is synchronised now (the kernel says so)")
  }
}
