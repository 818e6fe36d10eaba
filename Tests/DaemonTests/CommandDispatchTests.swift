import ControlProtocol
import DashPilotCore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// A component that hands the test a way onto the loop with its context: what a carrier of
/// requests other than the socket (a command channel) has.
final class ContextKeeper: DaemonComponent, @unchecked Sendable {
  // @unchecked: `context` is touched on the loop thread only, through `onLoop`.
  let name = "context-keeper"
  private(set) var context: DaemonContext?
  let onLoop = Mutex<(LoopMailbox, LoopBound<ContextKeeper>)?>(nil)

  func start(context: DaemonContext) throws {
    self.context = context
    let bound = context.bind(self)
    onLoop.withLock { $0 = (context.mailbox, bound) }
  }

  /// Dispatches `request` on the loop, answered through `channel`.
  func dispatch(_ request: ControlRequest, to channel: KeptAnswers) {
    guard let (mailbox, bound) = onLoop.withLock({ $0 }) else { return }
    mailbox.post {
      bound.withValue { keeper in
        keeper.context?.dispatch(request, to: Responder(channel: channel, conversation: 1_000))
      }
    }
  }
}

func waitForAnswers(_ channel: KeptAnswers, count: Int = 1) -> [Result<JSONValue, ControlError>] {
  for _ in 0..<1_000 where channel.answers.withLock({ $0.count }) < count { usleep(10_000) }
  return channel.answers.withLock { $0 }
}

@Suite("One dispatcher, for the socket and any other responder", .serialized)
struct CommandDispatchTests {
  @Test("the dispatcher answers status, refuses what it cannot route, and refuses everything once stopping")
  func dispatcherAlone() throws {
    let dispatcher = try CommandDispatcher(components: [ExampleShiftComponent()])
    let kept = KeptAnswers()
    let responder = Responder(channel: kept, conversation: 1)
    dispatcher.dispatch(ControlRequest(id: 1, command: .status), responder)
    #expect(kept.answers.withLock { $0 } == [.failure(ControlError(.unavailable, "the daemon is starting"))])

    let statusKept = KeptAnswers()
    dispatcher.status = {
      StatusResult(
        daemon: DaemonSection(
          version: "test", pid: 1, startedAt: Date(timeIntervalSince1970: 0), uptimeSeconds: 0, socket: "/s",
          config: nil, state: "running", units: "miles"),
        gpsd: GPSDSection(address: "localhost:2947"), capture: CaptureSection(), shift: nil, guidance: nil,
        store: StoreSection(path: "/db"))
    }
    dispatcher.dispatch(ControlRequest(id: 2, command: .status), Responder(channel: statusKept, conversation: 1))
    let status = try #require(try statusKept.answers.withLock { $0 }.first?.get())
    #expect(status["daemon"]?["socket"] == .string("/s"))

    let unrouted = KeptAnswers()
    dispatcher.dispatch(ControlRequest(id: 3, command: .routeClear), Responder(channel: unrouted, conversation: 1))
    #expect(
      unrouted.answers.withLock { $0 } == [
        .failure(
          ControlError(
            .unavailable,
            "route.clear is not available: this build of dashpilotd has no component that answers it"))
      ])

    // A command of a part the configuration leaves out says which.
    let resend = KeptAnswers()
    dispatcher.dispatch(
      ControlRequest(id: 3, command: .shiftResend(ShiftResendArguments(id: 1))),
      Responder(channel: resend, conversation: 1))
    #expect(
      resend.answers.withLock { $0 } == [
        .failure(
          ControlError(
            .unavailable,
            "shift.resend is not available: the fleet uplink is off (dashpilot.conf has no [Uplink] section)"))
      ])

    let events = KeptAnswers()
    dispatcher.dispatch(ControlRequest(id: 4, command: .events), Responder(channel: events, conversation: 1))
    #expect(
      events.answers.withLock { $0 } == [
        .failure(ControlError(.badRequest, "events can only be followed on the control socket"))
      ])

    dispatcher.isStopping = true
    let late = KeptAnswers()
    dispatcher.dispatch(ControlRequest(id: 5, command: .status), Responder(channel: late, conversation: 1))
    #expect(late.answers.withLock { $0 } == [.failure(ControlError(.shuttingDown, "the daemon is stopping"))])
  }

  @Test("a request dispatched through the context gets the socket's answer, from the component that claims it")
  func contextDispatchInARunningDaemon() throws {
    let keeper = ContextKeeper()
    let shifts = ExampleShiftComponent()
    let daemon = try InProcessDaemon { [keeper, shifts] }
    defer { daemon.stop() }
    #expect(daemon.waitUntilReady())

    let viaContext = KeptAnswers()
    keeper.dispatch(ControlRequest(id: 1, command: .status), to: viaContext)
    let status = try #require(try waitForAnswers(viaContext).first?.get())
    let socket = try RawSocketClient(path: daemon.socketPath)
    let overSocket = try #require(socket.ask(#"{"v":1,"id":1,"cmd":"status"}"#)?["result"] as? [String: Any])
    #expect(status["daemon"]?["socket"] == .string(daemon.socketPath))
    #expect((overSocket["daemon"] as? [String: Any])?["socket"] as? String == daemon.socketPath)
    #expect(status["daemon"]?["pid"]?.integerValue == Int64(getpid()))

    // Answered later, from the component's worker, as over the socket.
    let started = KeptAnswers()
    keeper.dispatch(ControlRequest(id: 2, command: .shiftStart), to: started)
    let shift = try #require(try waitForAnswers(started).first?.get())
    #expect(shift["id"]?.integerValue == 7)
  }
}
