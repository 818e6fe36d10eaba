import Foundation
import TestSupport
import Testing

/// The line a person reads when gpsd cannot be reached, from a real `dashpilotd` whose gpsd
/// address answers nothing (`127.0.0.1:1`): each fact once, no field repeated in brackets.
@Suite("the line for an unreachable gpsd")
struct GPSDUnreachableLineTests {
  @Test("said once, each fact once: the connection's reason and that it retries")
  func unreachableLine() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let line = try #require(daemon.waitForLog("retrying", timeout: 20), "\(daemon.log)")
    // libgps's own words for a refused connection.
    #expect(
      line == "dashpilotd: warning: cannot connect to gpsd at 127.0.0.1:1: can't connect to host/port pair; retrying")
    // Once, for the first attempt, not for each retry (the next is a second later).
    usleep(1_500_000)
    #expect(daemon.log.split(separator: "\n").filter { $0.contains("connect to gpsd") } == [Substring(line)])
  }
}
