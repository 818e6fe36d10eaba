import ControlProtocol
import Foundation
import PlatformSupport
import Synchronization
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Records what the daemon tells systemd. A seam: the real sd_notify path is checked by
/// the process tests against a real NOTIFY_SOCKET.
final class RecordingNotifier: ServiceNotifier {
  let states = Mutex<[String]>([])
  let watchdogInterval: TimeInterval? = nil
  func notify(_ state: String) { states.withLock { $0.append(state) } }
}

/// A component the way the lead will write one: it claims shift.start and shift.end,
/// answers shift.start from a blocking worker (as a store write would), announces, and
/// adds its shift to status.
///
/// `@unchecked Sendable` only so the test can hand it to the loop thread that owns it
/// afterwards; the test thread then reads nothing but its Mutex.
final class ExampleShiftComponent: DaemonComponent, @unchecked Sendable {
  let name = "example-shifts"
  let commands: Set<ControlCommand.Kind> = [.shiftStart, .shiftEnd]
  var context: DaemonContext?
  var worker: BlockingWorker?
  var openShift: ShiftSummary?
  let stopped = Mutex(false)

  func start(context: DaemonContext) throws {
    self.context = context
    worker = BlockingWorker(name: "example-store", mailbox: context.mailbox)
  }

  func contribute(to status: inout StatusResult) {
    status.shift = openShift
    status.store.ok = true
  }

  func handle(_ request: ControlRequest, responder: Responder) {
    guard let context, let worker else { return }
    switch request.command {
    case .shiftStart:
      let bound = context.bind((self, responder))
      worker.run({ () -> Int64 in
        usleep(20_000)  // stands in for the INSERT
        return 7
      }) { id in
        bound.withValue { component, responder in
          let distance = WireDistance(
            metres: 0, value: nil, unit: "miles", segments: 0, gaps: 0, usablePositions: 0,
            usesInferredContinuity: false, isMeasured: false, isPartial: false)
          let shift = ShiftSummary(
            id: id, startedAt: Date(timeIntervalSince1970: 1_700_000_000), endedAt: nil, distance: distance,
            summary: "No distance measured: no usable position was recorded", details: [],
            spoken: "No distance measured: no usable position was recorded.")
          component.openShift = shift
          component.context?.announce(.shiftStarted(.init(shift: id)), "shift \(id) started")
          responder.succeed(shift)
        }
      }
    default:
      responder.fail(.conflict, "no shift is open")
    }
  }

  func stop() {
    worker?.finish()
    stopped.withLock { $0 = true }
  }
}

final class FailingComponent: DaemonComponent {
  let name = "broken-store"
  struct Failure: Error, CustomStringConvertible { var description = "the database is locked" }
  func start(context: DaemonContext) throws { throw Failure() }
}

/// Runs a DaemonRuntime in this process on a loop thread of its own.
final class InProcessDaemon: @unchecked Sendable {
  let directory: URL
  let socketPath: String
  let notifier = RecordingNotifier()
  let finished = DispatchSemaphore(value: 0)
  let failure = Mutex<String?>(nil)
  private let stopBox = Mutex<(@Sendable () -> Void)?>(nil)

  init(components: @escaping @Sendable () -> [any DaemonComponent]) throws {
    directory = try TestPaths.temporaryDirectory("dashpilot-inprocess")
    socketPath = directory.appendingPathComponent("c.sock").path
    let socketPath = socketPath
    let notifier = notifier
    // As dashpilotd ignores it (SignalPipe), whose handlers this daemon leaves alone: a
    // write to a child that has died (a killed route reader) must not end the test process.
    signal(SIGPIPE, SIG_IGN)
    let thread = Thread { [self] in
      do {
        var configuration = DaemonConfiguration()
        configuration.socketPath = socketPath
        let loop = try EventLoop(clock: LoopClock())
        let listener = try ListeningSocket.create(path: socketPath, group: nil)
        let context = DaemonContext(
          configuration: configuration, configurationFile: nil, logger: StandardErrorLogger(minimumPriority: .error),
          notifier: notifier, loop: loop)
        let runtime = try DaemonRuntime(
          context: context, loop: loop, components: components(), signals: try SignalPipe(signals: []))
        let bound = loop.bind(runtime)
        let mailbox = loop.mailbox
        stopBox.withLock { $0 = { mailbox.post { bound.withValue { $0.requestStop(reason: "test") } } } }
        try runtime.run(listener: listener, policy: AccessPolicy(daemonUID: geteuid(), socketGID: getegid()))
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
      finished.signal()
    }
    thread.start()
  }

  func waitUntilReady() -> Bool {
    for _ in 0..<500 {
      if notifier.states.withLock({ $0.contains { $0.hasPrefix("READY=1") } }) { return true }
      if failure.withLock({ $0 }) != nil { return false }
      usleep(10_000)
    }
    return false
  }

  private let isStopped = Mutex(false)

  /// Stops the runtime and waits for its thread; a second call does nothing.
  func stop() {
    guard
      isStopped.withLock({ stopped in
        defer { stopped = true }
        return !stopped
      })
    else { return }
    stopBox.withLock { $0 }?()
    _ = finished.wait(timeout: .now() + 10)
    try? FileManager.default.removeItem(at: directory)
  }
}

@Suite("Plugging components in", .serialized)
struct ComponentPlugInTests {
  @Test("a component answers its commands (later, from a worker), fills status and announces to followers")
  func exampleComponent() throws {
    let component = ExampleShiftComponent()
    let daemon = try InProcessDaemon { [component] }
    defer { daemon.stop() }
    #expect(daemon.waitUntilReady())
    let follower = try RawSocketClient(path: daemon.socketPath)
    #expect(follower.ask(#"{"v":1,"id":1,"cmd":"events"}"#)?["ok"] as? Bool == true)

    let client = try RawSocketClient(path: daemon.socketPath)
    let before = try #require(client.ask(#"{"v":1,"id":1,"cmd":"status"}"#)?["result"] as? [String: Any])
    #expect(before["shift"] is NSNull)
    #expect((before["store"] as? [String: Any])?["ok"] as? Bool == true)

    let started = try #require(client.ask(#"{"v":1,"id":2,"cmd":"shift.start"}"#))
    #expect((started["result"] as? [String: Any])?["id"] as? Int == 7)
    let event = try #require(follower.readLine())
    #expect(event.contains(#""type":"shift.started""#) && event.contains(#""shift":7"#))

    let after = try #require(client.ask(#"{"v":1,"id":3,"cmd":"status"}"#)?["result"] as? [String: Any])
    #expect((after["shift"] as? [String: Any])?["id"] as? Int == 7)
    #expect(client.ask(#"{"v":1,"id":4,"cmd":"shift.end"}"#)?.errorMessage == "no shift is open")
    #expect(client.ask(#"{"v":1,"id":5,"cmd":"route.clear"}"#)?.errorCode == "unavailable")

    daemon.stop()
    #expect(component.stopped.withLock { $0 })
    #expect(daemon.notifier.states.withLock { $0 }.contains("STOPPING=1\nSTATUS=Stopping on test"))
  }

  @Test("a component that cannot start stops start-up before READY=1, and the socket is removed")
  func failingComponent() throws {
    let daemon = try InProcessDaemon { [FailingComponent()] }
    defer { daemon.stop() }
    #expect(!daemon.waitUntilReady())
    #expect(daemon.failure.withLock { $0 } == "broken-store could not start: the database is locked")
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
  }

  @Test("two components claiming one command is refused at start-up")
  func duplicateClaims() throws {
    let daemon = try InProcessDaemon { [ExampleShiftComponent(), ExampleShiftComponent()] }
    defer { daemon.stop() }
    #expect(!daemon.waitUntilReady())
    let failure = daemon.failure.withLock { $0 } ?? ""
    #expect(
      failure == "both example-shifts and example-shifts claim the command shift.start"
        || failure == "both example-shifts and example-shifts claim the command shift.end")
  }
}
