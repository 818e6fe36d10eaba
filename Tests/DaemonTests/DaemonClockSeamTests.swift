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
    let loop = try EventLoop(clock: LoopClock(clocks.clocks))
    let context = DaemonContext(
      configuration: configuration, configurationFile: nil, logger: LinesLogger(), notifier: RecordingNotifier(),
      loop: loop)
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

/// Clocks whose monotonic reading is `start` at the first read and `start + leap` at every
/// later one, and whose wall clock is stepped back an hour at every read: a child timed on
/// them has used its whole time limit by its second look at the clock.
final class LeapingClocks: Sendable {
  private let reads = Mutex(0)

  func clocks(start: Double, leap: Double) -> Clocks {
    Clocks(
      wall: { [self] in Date(timeIntervalSince1970: 1_700_000_000 - 3600 * Double(reads.withLock { $0 })) },
      monotonic: { [self] in
        reads.withLock {
          $0 += 1
          return $0 == 1 ? start : start + leap
        }
      }, isWallClockSynchronised: { false })
  }
}

@Suite("The daemon's children are timed on its clocks")
struct DaemonChildClockTests {
  @Test("a spoken line is stopped after its 30 s on the daemon's monotonic clock, the wall clock stepped either way")
  func speechLimitFollowsTheMonotonicClock() throws {
    let clocks = SetClocks()
    clocks.set(wall: 1_700_000_000, monotonic: 100)
    var failures: [String] = []
    let speaker = Speaker(
      command: try SpeechCommand(parsing: "/bin/sh -c 'read line; exec sleep 60'"), maximumSpeechDuration: 30,
      clocks: clocks.clocks
    ) { failures.append($0) }
    #expect(speaker.speak("hang"))
    clocks.set(wall: 1_700_000_000 + 4 * 3600, monotonic: 129.9)
    speaker.reap()
    #expect(speaker.speakingCount == 1)
    #expect(failures == [])
    clocks.set(wall: 1_700_000_000 - 4 * 3600, monotonic: 130.1)
    speaker.reap()
    #expect(failures == [#"the speech command /bin/sh was still speaking "hang" after 30.0 s and was stopped"#])
    // Killed; collected once the kernel has ended it.
    let collected = Date().addingTimeInterval(10)
    while speaker.speakingCount > 0 && Date() < collected {
      usleep(10_000)
      speaker.reap()
    }
    #expect(speaker.speakingCount == 0)
    #expect(speaker.started == 1 && speaker.succeeded == 0)
  }

  @Test("the route reader's time limit is measured on the daemon's monotonic clock, not the machine's")
  func routeReaderLimitFollowsTheMonotonicClock() {
    // A reader that would end well after a second: its 5 s are gone on the daemon's clock.
    let child = RouteReaderChild(
      program: "/bin/sh", arguments: ["-c", "sleep 1; echo '[]'"], timeLimit: 5,
      clocks: LeapingClocks().clocks(start: 40, leap: 5.001))
    #expect(child.run(input: []) == .timedOut)
    // The same reader on clocks that stand still (the wall clock stepped back at every look) ends by itself.
    let standing = RouteReaderChild(
      program: "/bin/sh", arguments: ["-c", "sleep 1; echo '[]'"], timeLimit: 5,
      clocks: LeapingClocks().clocks(start: 40, leap: 0))
    #expect(standing.run(input: []) == .exited(status: 0, output: Array("[]\n".utf8), error: []))
  }
}
