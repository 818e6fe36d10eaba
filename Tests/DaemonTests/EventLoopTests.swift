import Foundation
import PlatformSupport
import Synchronization
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` on a thread of its own that owns an event loop, until the body's work
/// stops the loop (or ten seconds pass).
func withLoopThread(_ body: @escaping @Sendable (EventLoop) -> Void) throws {
  let finished = DispatchSemaphore(value: 0)
  let thread = Thread {
    guard let loop = try? EventLoop(clock: LoopClock()) else {
      finished.signal()
      return
    }
    body(loop)
    loop.every(10) { loop.stop() }
    loop.run()
    finished.signal()
  }
  thread.start()
  #expect(finished.wait(timeout: .now() + 10) == .success)
}

final class Recorder: Sendable {
  let values = Mutex<[String]>([])
  func add(_ value: String) { values.withLock { $0.append(value) } }
  var all: [String] { values.withLock { $0 } }
}

@Suite("Event loop")
struct EventLoopTests {
  @Test("work posted from other threads runs on the loop thread, in order")
  func mailboxOrder() throws {
    let recorder = Recorder()
    try withLoopThread { loop in
      let owner = loop.bind(pthread_self())
      let mailbox = loop.mailbox
      let poster = Thread {
        for index in 0..<100 {
          mailbox.post {
            owner.withValue { thread in
              recorder.add(pthread_equal(thread, pthread_self()) != 0 ? "\(index)" : "off-loop \(index)")
            }
          }
        }
        mailbox.post { owner.withValue { _ in recorder.add("done") } }
      }
      poster.start()
      loop.every(0.01) { if recorder.all.last == "done" { loop.stop() } }
    }
    #expect(recorder.all == (0..<100).map(String.init) + ["done"])
  }

  @Test("a blocking worker runs off the loop and hands results back in order")
  func blockingWorker() throws {
    let recorder = Recorder()
    try withLoopThread { loop in
      let loopThread = pthread_self()
      let worker = BlockingWorker(name: "test-worker", mailbox: loop.mailbox)
      let boundLoop = loop.bind(loop)
      for index in 0..<5 {
        worker.run({ () -> String in
          usleep(2_000)
          return pthread_equal(loopThread, pthread_self()) != 0 ? "on-loop" : "worker \(index)"
        }) { result in
          recorder.add(result)
          recorder.add(pthread_equal(loopThread, pthread_self()) != 0 ? "back" : "not back")
          if index == 4 {
            worker.finish()
            boundLoop.withValue { $0.stop() }
          }
        }
      }
    }
    #expect(recorder.all == (0..<5).flatMap { ["worker \($0)", "back"] })
  }

  @Test("repeating timers fire at their interval on the loop")
  func timers() throws {
    let recorder = Recorder()
    try withLoopThread { loop in
      var ticks = 0
      let started = MonotonicClock.now()
      loop.every(0.05) {
        ticks += 1
        if ticks == 4 {
          recorder.add(MonotonicClock.now() - started >= 0.2 ? "four ticks, not early" : "early")
          loop.stop()
        }
      }
    }
    #expect(recorder.all == ["four ticks, not early"])
  }
}

@Suite("Journal fields")
struct LoggingTests {
  @Test("structured fields become DASHPILOT_ journal fields in a stable order")
  func fields() {
    let fields = LogFields(session: "s-1", shift: 12, reason: "stale", extra: ["gps device": "/dev/ttyACM0"])
    #expect(
      fields.journalFields.map { "\($0.0)=\($0.1)" } == [
        "DASHPILOT_SESSION=s-1", "DASHPILOT_SHIFT=12", "DASHPILOT_REASON=stale", "DASHPILOT_GPS_DEVICE=/dev/ttyACM0",
      ])
  }

  @Test("a JOURNAL_STREAM that is not our stderr does not count as the journal")
  func journalDetection() {
    #expect(!JournalLogger.isConnectedToJournal(environment: ["JOURNAL_STREAM": "1:1"]))
    #expect(!JournalLogger.isConnectedToJournal(environment: [:]))
    #expect(LoggerSelection.standard(environment: [:]) is StandardErrorLogger)
  }
}
