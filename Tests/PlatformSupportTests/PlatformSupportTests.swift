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
    let deadline = Date(timeIntervalSinceNow: 10)
    condition.lock()
    while !ran && condition.wait(until: deadline) {}
    let (finished, name) = (ran, seenName)
    condition.unlock()
    #expect(finished)
    // Linux keeps 15 bytes of a thread's name.
    #expect(name == "dashpilot.test-")
  }

  @Test func aConditionWaitTimesOutAtItsDeadlineAndWakesWhenSignalled() {
    let condition = PlatformSupport.Condition()
    condition.lock()
    let started = Date()
    #expect(condition.wait(until: started.addingTimeInterval(0.2)) == false)
    #expect(Date().timeIntervalSince(started) >= 0.19)
    #expect(condition.wait(until: started.addingTimeInterval(-5)) == false)
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
    while value == 0 { #expect(condition.wait(until: Date(timeIntervalSinceNow: 30))) }
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
