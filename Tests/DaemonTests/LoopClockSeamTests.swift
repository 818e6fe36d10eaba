import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// An event loop running on a thread of its own, on clocks the test sets by hand. The test
/// steps the clocks, then `turn` runs work on the loop and returns once the loop has also
/// run the timers due by the clocks as stepped.
final class SteppedLoopThread: @unchecked Sendable {
  // @unchecked: `loop` is written once, on the loop's thread, before `init` returns.
  let clocks = SetClocks()
  private var loop: EventLoop?
  private let started = DispatchSemaphore(value: 0)
  private let ended = DispatchSemaphore(value: 0)

  init(wall: Double, monotonic: Double) throws {
    clocks.set(wall: wall, monotonic: monotonic)
    let thread = Thread { [self] in
      let loop = try? EventLoop(clock: LoopClock(clocks.clocks))
      self.loop = loop
      started.signal()
      loop?.run()
      ended.signal()
    }
    thread.start()
    started.wait()
    guard loop != nil else { throw DaemonTestFailure("the event loop could not be made") }
  }

  /// Runs `body` on the loop thread; returns once the loop has run that round's due timers
  /// too (the round after it has begun), or false after ten seconds.
  @discardableResult
  func turn(_ body: @escaping @Sendable (EventLoop) -> Void = { _ in }) -> Bool {
    guard let loop else { return false }
    let bound = loop.bind(loop)
    let mailbox = loop.mailbox
    let done = DispatchSemaphore(value: 0)
    // Work posted while the mailbox is drained runs in the next round, after this round's timers.
    mailbox.post {
      bound.withValue { body($0) }
      mailbox.post { done.signal() }
    }
    return done.wait(timeout: .now() + 10) == .success
  }

  func stop() {
    guard let loop else { return }
    let bound = loop.bind(loop)
    loop.mailbox.post { bound.withValue { $0.stop() } }
    _ = ended.wait(timeout: .now() + 10)
  }
}

/// The control server made on the loop thread, kept for the test's later turns.
final class ServerKeeper: @unchecked Sendable {
  // @unchecked: touched only on the loop thread, through `SteppedLoopThread.turn`.
  var server: ControlServer?
}

@Suite("The event loop's clock seam")
struct LoopClockSeamTests {
  static let wallStart = 1_700_000_000.0
  static let hours = 3600.0

  @Test("the loop's timers run on its monotonic clock: a wall clock stepped by hours neither fires nor delays one")
  func timersFollowTheMonotonicClock() throws {
    let thread = try SteppedLoopThread(wall: Self.wallStart, monotonic: 1000)
    defer { thread.stop() }
    let fired = Recorder()
    #expect(thread.turn { loop in loop.every(10) { fired.add("\(loop.clock.monotonic())") } })

    thread.clocks.set(wall: Self.wallStart + 5 * Self.hours, monotonic: 1009.9)
    #expect(thread.turn())
    #expect(fired.all == [])
    thread.clocks.set(wall: Self.wallStart - 5 * Self.hours, monotonic: 1010)
    #expect(thread.turn())
    #expect(fired.all == ["1010.0"])
    // A stall of 25 s: one beat, not a burst, and the next stays on the 10 s grid.
    thread.clocks.set(wall: Self.wallStart - 5 * Self.hours, monotonic: 1035)
    #expect(thread.turn())
    #expect(fired.all == ["1010.0", "1035.0"])
    thread.clocks.set(wall: Self.wallStart + 9 * Self.hours, monotonic: 1039.9)
    #expect(thread.turn())
    #expect(fired.all == ["1010.0", "1035.0"])
    thread.clocks.set(wall: Self.wallStart, monotonic: 1040)
    #expect(thread.turn())
    #expect(fired.all == ["1010.0", "1035.0", "1040.0"])
  }

  @Test(
    "timers of one interval beat together: one set later fires on the first's beat, one of another interval on its own")
  func timersOfOneIntervalBeatTogether() throws {
    let thread = try SteppedLoopThread(wall: Self.wallStart, monotonic: 1000)
    defer { thread.stop() }
    let fired = Recorder()
    #expect(thread.turn { loop in loop.every(10) { fired.add("first \(loop.clock.monotonic())") } })
    thread.clocks.set(wall: Self.wallStart + 4, monotonic: 1004)
    #expect(
      thread.turn { loop in
        loop.every(10) { fired.add("second \(loop.clock.monotonic())") }
        loop.every(3) { fired.add("other \(loop.clock.monotonic())") }
      })
    thread.clocks.set(wall: Self.wallStart + 7, monotonic: 1007)
    #expect(thread.turn())
    #expect(fired.all == ["other 1007.0"])
    thread.clocks.set(wall: Self.wallStart + 10, monotonic: 1010)
    #expect(thread.turn())
    #expect(fired.all == ["other 1007.0", "first 1010.0", "second 1010.0", "other 1010.0"])
    thread.clocks.set(wall: Self.wallStart + 14, monotonic: 1014)
    #expect(thread.turn())
    #expect(fired.all.count == 5)
    #expect(fired.all.last == "other 1014.0")
  }

  @Test("the control socket's idle timeout runs on the loop's monotonic clock, whatever the wall clock does")
  func idleTimeoutFollowsTheMonotonicClock() throws {
    let directory = try TestPaths.temporaryDirectory("idle-clock")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("control.sock").path
    let thread = try SteppedLoopThread(wall: Self.wallStart, monotonic: 500)
    defer { thread.stop() }
    let keeper = ServerKeeper()
    #expect(
      thread.turn { loop in
        guard let listener = try? ListeningSocket.create(path: path, group: nil) else { return }
        let server = ControlServer(
          listener: listener, loop: loop, limits: ControlServerLimits(maximumClients: 4, idleTimeout: 60),
          policy: AccessPolicy(daemonUID: geteuid(), socketGID: getegid()), logger: LinesLogger()
        ) { _, responder in responder.fail(.unavailable, "nothing answers here") }
        server.start()
        keeper.server = server
      })
    let client = try RawSocketClient(path: path)
    // Its last request comes at 500 s on the loop's clock.
    #expect(client.ask(#"{"v":1,"id":1,"cmd":"status"}"#)?.errorMessage == "nothing answers here")
    // The clients left once the loop has turned with the clocks as set (its idle check
    // included), counted on a turn after it.
    let counts = Recorder()
    func clientsAfterATurn() -> String? {
      thread.turn()
      thread.turn { _ in counts.add("\(keeper.server?.clientCount ?? -1)") }
      return counts.all.last
    }

    thread.clocks.set(wall: Self.wallStart + 3 * Self.hours, monotonic: 559.9)
    #expect(clientsAfterATurn() == "1")
    thread.clocks.set(wall: Self.wallStart - 3 * Self.hours, monotonic: 560)
    #expect(clientsAfterATurn() == "0")
    #expect(
      client.readLine()
        == #"{"error":{"code":"idle_timeout","message":"no request for 60 s; closing the connection"},"id":null,"ok":false,"v":1}"#
    )
    #expect(client.isClosedByPeer())
    thread.turn { _ in keeper.server?.shutDown(flushFor: 0) }
  }
}
