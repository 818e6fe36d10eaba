import ControlProtocol
import DashPilotCore
import Foundation
import Guidance
import PlatformSupport
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// Clocks the test sets by hand, handed to the daemon through its context (the seam's own
/// test against the machine's clocks is PlatformSupportTests' ClocksTests).
final class SetClocks: Sendable {
  private let reading = Mutex((wall: 0.0, monotonic: 0.0))

  var clocks: Clocks {
    Clocks(
      wall: { [self] in Date(timeIntervalSince1970: reading.withLock { $0.wall }) },
      monotonic: { [self] in reading.withLock { $0.monotonic } }, isWallClockSynchronised: { false })
  }

  func set(wall: Double, monotonic: Double) {
    reading.withLock { $0 = (wall, monotonic) }
  }
}

/// Keeps the answers a request got, for a responder that is no socket connection.
final class KeptAnswers: ResponseChannel, @unchecked Sendable {
  // @unchecked: written on the loop thread, read by the test after the loop has answered.
  let answers = Mutex<[Result<JSONValue, ControlError>]>([])
  let canFollow: Bool

  init(canFollow: Bool = false) {
    self.canFollow = canFollow
  }

  func deliver(_ answer: ControlAnswer) {
    let kept: Result<JSONValue, ControlError>
    switch answer {
    case .success(let result):
      let data = (try? ControlCoding.makeEncoder().encode(result)) ?? Data()
      kept = .success((try? ControlCoding.makeDecoder().decode(JSONValue.self, from: data)) ?? .null)
    case .failure(let error):
      kept = .failure(error)
    }
    answers.withLock { $0.append(kept) }
  }

  func startFollowing() -> Bool { canFollow }
}

@Suite("The daemon's clock seam")
struct DaemonClockSeamTests {
  @Test(
    "guidance in a daemon context: the wall clock stepped back mid-reroute, the retry still comes 15 s after the failure"
  )
  func guidanceRetriesOnTheContextsMonotonicClock() throws {
    var configuration = DaemonConfiguration()
    // The real Valhalla provider, where nothing listens: every request fails at once,
    // transiently (unavailable).
    configuration.routingURL = "http://127.0.0.1:1"
    let clocks = SetClocks()
    clocks.set(wall: PolicyDrive.wallStart, monotonic: PolicyDrive.monotonicStart)
    let loop = try EventLoop()
    let context = DaemonContext(
      configuration: configuration, configurationFile: nil, logger: LinesLogger(), notifier: RecordingNotifier(),
      loop: loop, clock: LoopClock(clocks.clocks))
    var published: [ControlEvent] = []
    context.publishHandler = { published.append($0) }
    let guidance = GuidanceComponent(configuration: configuration)
    try guidance.start(context: context)
    defer { guidance.stop() }

    let loaded = KeptAnswers()
    guidance.handle(
      ControlRequest(
        id: 1, command: .routeLoad(RouteLoadArguments(mode: .driving, coordinates: PolicyDrive.route))),
      responder: Responder(channel: loaded, conversation: 1))
    #expect(loaded.answers.withLock { $0.count } == 1)
    guidance.observe(fix: PolicyDrive.onFix(0))
    for t in 1...5 {
      clocks.set(wall: PolicyDrive.wallStart + Double(t), monotonic: PolicyDrive.monotonicStart + Double(t))
      guidance.observe(fix: PolicyDrive.offFix(Double(t)))
    }
    #expect(published.filter { $0.type == "guidance.reroute_requested" }.count == 1)
    // The provider's answer comes back through the loop's mailbox; it is handled at t=5.
    let deadline = Date().addingTimeInterval(20)
    while !published.contains(where: { $0.type == "guidance.reroute_failed" }) && Date() < deadline {
      for work in loop.mailbox.drain() { work() }
      usleep(10_000)
    }
    let failed = try #require(published.first { $0.type == "guidance.reroute_failed" }, "\(published.map(\.type))")
    guard case .guidanceRerouteFailed(let failure) = failed.payload else {
      Issue.record("not a reroute failure: \(failed)")
      return
    }
    #expect(failure.failure == "unavailable")
    #expect(failure.at == Date(timeIntervalSince1970: PolicyDrive.wallStart + 5))
    #expect(failure.retryAt == Date(timeIntervalSince1970: PolicyDrive.wallStart + 20))

    // The box's clock is set an hour back; the ticks go on by the monotonic clock.
    for t in stride(from: 6.0, through: 19.5, by: 0.5) {
      clocks.set(wall: PolicyDrive.wallStart + t - 3600, monotonic: PolicyDrive.monotonicStart + t)
      guidance.tick(now: context.clock.tick())
    }
    #expect(published.filter { $0.type == "guidance.reroute_requested" }.count == 1)
    clocks.set(wall: PolicyDrive.wallStart + 20 - 3600, monotonic: PolicyDrive.monotonicStart + 20)
    guidance.tick(now: context.clock.tick())
    let requests = published.filter { $0.type == "guidance.reroute_requested" }
    #expect(requests.count == 2)
    #expect(requests.last?.time == Date(timeIntervalSince1970: PolicyDrive.wallStart + 20 - 3600))
  }
}
