import GPSD
import Testing

struct ReconnectBackoffTests {
  @Test func doublesFromOneSecondToThirtyWithoutJitter() {
    var backoff = ReconnectBackoff()
    let delays = (0..<8).map { _ in backoff.nextDelay(unitRandom: 0) }
    #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30])
    #expect(backoff.failures == 8)
  }

  @Test func jitterOnlyShortensByAtMostItsFraction() {
    var backoff = ReconnectBackoff(initialDelay: 1, maximumDelay: 30, jitterFraction: 0.2)
    #expect(backoff.nextDelay(unitRandom: 0.5) == 0.9)
    #expect(backoff.nextDelay(unitRandom: 1) == 1.6)
    for _ in 0..<5 { _ = backoff.nextDelay(unitRandom: 0) }
    #expect(backoff.nextDelay(unitRandom: 0.999_999) > 24)
    #expect(backoff.nextDelay(unitRandom: 0.25) == 28.5)
  }

  @Test func outOfRangeRandomnessIsClamped() {
    var backoff = ReconnectBackoff()
    #expect(backoff.nextDelay(unitRandom: -3) == 1)
    #expect(backoff.nextDelay(unitRandom: .nan) == 2)
    #expect(backoff.nextDelay(unitRandom: 7) == 3.2)
  }

  @Test func aReportResetsTheSchedule() {
    var backoff = ReconnectBackoff()
    _ = backoff.nextDelay(unitRandom: 0)
    _ = backoff.nextDelay(unitRandom: 0)
    _ = backoff.nextDelay(unitRandom: 0)
    backoff.reset()
    #expect(backoff.failures == 0)
    #expect(backoff.nextDelay(unitRandom: 0) == 1)
  }

  @Test func neverZeroNeverBelowTheInitialDelay() {
    var backoff = ReconnectBackoff(initialDelay: 0, maximumDelay: -5, jitterFraction: 3)
    #expect(backoff.initialDelay == 0.001)
    #expect(backoff.maximumDelay == 0.001)
    #expect(backoff.jitterFraction == 1)
    #expect(backoff.nextDelay(unitRandom: 0) == 0.001)
  }
}

struct GPSDEndpointTests {
  @Test func defaultsToGPSDsOwnPort() {
    #expect(GPSDEndpoint.standard == GPSDEndpoint(host: "localhost", port: 2947))
    #expect(GPSDEndpoint.standard.description == "localhost:2947")
  }

  @Test func parsesHostAndPort() {
    #expect(GPSDEndpoint(parsing: "gps.local") == GPSDEndpoint(host: "gps.local", port: 2947))
    #expect(GPSDEndpoint(parsing: "127.0.0.1:3000") == GPSDEndpoint(host: "127.0.0.1", port: 3000))
    #expect(GPSDEndpoint(parsing: "[::1]:4000") == GPSDEndpoint(host: "::1", port: 4000))
    #expect(GPSDEndpoint(parsing: "[::1]") == GPSDEndpoint(host: "::1", port: 2947))
    #expect(GPSDEndpoint(parsing: "::1") == GPSDEndpoint(host: "::1", port: 2947))
    #expect(GPSDEndpoint(host: "::1", port: 4000).description == "[::1]:4000")
  }

  @Test(arguments: ["", ":2947", "host:0", "host:65536", "host:port", "[::1", "[::1]x"])
  func rejectsNonsense(_ text: String) {
    #expect(GPSDEndpoint(parsing: text) == nil)
  }
}
