import Foundation
import PlatformSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The Glibc stand-ins the daemon uses instead of Foundation's NSCondition, Thread and
/// trimmingCharacters, checked against what Foundation gives.
struct PlatformSupportTests {
  @Test func aNativeThreadRunsItsClosureUnderItsName() throws {
    let condition = PlatformSupport.Condition()
    var seenName = ""
    var ran = false
    let thread = NativeThread {
      let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
      condition.withLock {
        seenName = name.trimmingCharacters(in: .newlines)
        ran = true
        condition.broadcast()
      }
    }
    thread.name = "dashpilot.test-thread-name"
    #expect(thread.start())
    let deadline = Condition.deadline(after: 10)
    condition.lock()
    while !ran && condition.wait(until: deadline) {}
    let (finished, name) = (ran, seenName)
    condition.unlock()
    #expect(finished)
    // Linux keeps 15 bytes of a thread's name.
    #expect(name == "dashpilot.test-")
  }

  @Test func aConditionWaitTimesOutAtItsMonotonicDeadlineAndWakesWhenSignalled() {
    let condition = PlatformSupport.Condition()
    condition.lock()
    // The deadline is on CLOCK_MONOTONIC (seconds since boot): read as a wall-clock time,
    // as the wait took it before, it would lie in 1970 and the wait would end at once.
    let started = ClocksTests.kernelMonotonic()
    #expect(Condition.deadline(after: 0) >= started)
    #expect(condition.wait(until: started + 0.2) == false)
    #expect(ClocksTests.kernelMonotonic() - started >= 0.2)
    #expect(condition.wait(until: started - 5) == false)
    condition.unlock()

    var value = 0
    let thread = NativeThread {
      usleep(50_000)
      condition.withLock {
        value = 42
        condition.signal()
      }
    }
    condition.lock()
    #expect(thread.start())
    // A deadline years away (capped inside) still ends with the signal.
    while value == 0 { #expect(condition.wait(until: started + 1e12)) }
    condition.unlock()
    #expect(value == 42)
  }

  @Test func trimmingSpacesAndTabsLeavesTheInsideAlone() {
    #expect("  a b\t".trimmingSpacesAndTabs == "a b")
    #expect("\t \t".trimmingSpacesAndTabs == "")
    #expect("x".trimmingSpacesAndTabs == "x")
    #expect(" host name ".dropFirst().trimmingSpacesAndTabs == "host name")
  }
}
