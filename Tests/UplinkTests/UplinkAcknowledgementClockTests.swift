import DashPilotCore
import Foundation
import PlatformSupport
import Synchronization
import TestSupport
import Testing

@testable import Uplink

/// Clocks the test sets by hand, handed to the uplink in place of the machine's.
final class HandSetClocks: Sendable {
  private let reading: Mutex<(wall: Double, monotonic: Double)>

  init(wall: Double, monotonic: Double) {
    reading = Mutex((wall, monotonic))
  }

  var clocks: Clocks {
    Clocks(
      wall: { [self] in Date(timeIntervalSince1970: reading.withLock { $0.wall }) },
      monotonic: { [self] in reading.withLock { $0.monotonic } }, isWallClockSynchronised: { false })
  }

  func set(wall: Double, monotonic: Double) {
    reading.withLock { $0 = (wall, monotonic) }
  }
}

/// Against a real mosquitto on 127.0.0.1, frozen (SIGSTOP) so that nothing is acknowledged.
@Suite(.timeLimit(.minutes(2)), .requiresMosquitto) struct UplinkAcknowledgementClockTests {
  static let wallStart = 1_700_000_000.0
  static let hours = 3600.0

  @Test(
    "the acknowledgement timeout runs on the monotonic clock: the wall clock stepped hours ahead does not fire it early, nor hours back late"
  )
  func acknowledgementTimeoutFollowsTheMonotonicClock() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-ack-clock")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    // A keepalive far longer than the test: the frozen broker must cost no connection.
    var configuration = testConfiguration(port: broker.port)
    configuration.keepalive = 300
    let clocks = HandSetClocks(wall: Self.wallStart, monotonic: 2000)
    let harness = try UplinkHarness(configuration: configuration, acknowledgementTimeout: 60, clocks: clocks.clocks)
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.connected == true })
    broker.pause()
    // Published at 2000 s on the monotonic clock.
    try harness.enqueue(sampleBatches(count: 5, size: 2))
    #expect(harness.status?.inFlight == 5)
    let stalls = {
      harness.logs.lines.map(\.message).filter { $0.hasPrefix("uplink: no acknowledgement") }
    }

    clocks.set(wall: Self.wallStart + 5 * Self.hours, monotonic: 2059)
    _ = harness.onService { $0.tick() }
    #expect(stalls() == [])
    #expect(harness.status?.inFlight == 5)
    clocks.set(wall: Self.wallStart - 5 * Self.hours, monotonic: 2061)
    _ = harness.onService { $0.tick() }
    #expect(
      stalls() == [
        "uplink: no acknowledgement from 127.0.0.1:\(broker.port) for 61 s; publishing the unacknowledged entries again"
      ])
    broker.resume()
    #expect(await eventually(within: 10) { harness.depth == 0 })
  }
}
