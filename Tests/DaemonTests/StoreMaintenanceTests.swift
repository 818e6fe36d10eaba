import Foundation
import PlatformSupport
import Testing

@testable import Daemon
@testable import Store

/// `StoreMaintenance`'s decisions with explicit times: the check once after start-up, the
/// copy each finding calls for, a copy brought level every minute once done, a failed copy
/// tried again ten minutes on.
@Suite("store maintenance policy")
struct StoreMaintenanceTests {
  static func at(_ monotonic: Double) -> ClockReading {
    ClockReading(
      wall: Date(timeIntervalSince1970: 1_800_000_000 + monotonic), monotonic: monotonic, isWallClockSynchronised: true)
  }

  static let healthy = Result<StoreCheck.Finding, StoreError>.success(
    StoreCheck.Finding(lines: ["ok"], seconds: 4.25, priorityRefused: []))

  static func progress(_ copied: Int, done: Bool, _ purpose: StoreRebuild.Purpose = .convert) -> StoreRebuild.Progress {
    StoreRebuild.Progress(
      purpose: purpose, copiedSamples: copied, reachedRowID: Int64(copied), lastLiveRowID: 100, unreadable: [],
      tailUnreadable: false, isCopied: done)
  }

  @Test("the check runs once, on the first tick; a healthy file in the current layout needs nothing more")
  func checkOnce() {
    var policy = StoreMaintenance(copyLeftUnfinished: false, layoutIsCurrent: true)
    #expect(policy.ticked(now: Self.at(1)) == [.check])
    #expect(policy.ticked(now: Self.at(2)) == [])
    let (said, next) = policy.checked(Self.healthy, path: "/db", now: Self.at(5).wall)
    #expect(
      said == [
        .log(.info, "store: /db passed its integrity check (quick_check, 4.3 s)", LogFields(reason: "store_check"))
      ])
    #expect(next == [])
    #expect(policy.check == .healthy(at: Self.at(5).wall, seconds: 4.25))
    #expect(!policy.isRebuilding)
    #expect(policy.ticked(now: Self.at(10_000)) == [])
  }

  @Test("an old layout is converted, chunk after chunk, then brought level every 60 s until the next start")
  func conversion() {
    var policy = StoreMaintenance(copyLeftUnfinished: false, layoutIsCurrent: false)
    _ = policy.ticked(now: Self.at(1))
    #expect(policy.checked(Self.healthy, path: "/db", now: Self.at(5).wall).start == [.copy(.convert)])
    let first = policy.rebuilt(.success(Self.progress(20_000, done: false)), path: "/db", now: Self.at(6))
    #expect(first.start == [.copy(.convert)])
    #expect(first.said.count == 1)
    #expect(policy.isRebuilding)
    let second = policy.rebuilt(.success(Self.progress(30_000, done: true)), path: "/db", now: Self.at(7))
    #expect(second.start == [])
    #expect(
      second.said == [
        .log(
          .notice,
          "store: the copy of /db holds all 30000 samples; the next start of dashpilotd puts it in the file's place",
          LogFields(reason: "store_rebuild"))
      ])
    #expect(policy.ticked(now: Self.at(66.5)) == [])
    #expect(policy.ticked(now: Self.at(67)) == [.catchUp])
    #expect(policy.ticked(now: Self.at(100)) == [])
    // Caught up again: said once only.
    #expect(policy.rebuilt(.success(Self.progress(30_050, done: true)), path: "/db", now: Self.at(68)).said == [])
    #expect(policy.ticked(now: Self.at(128)) == [.catchUp])
  }

  @Test("a damaged file is salvaged even while a conversion runs; a failed copy is tried again after 600 s")
  func salvageAndRetry() {
    var policy = StoreMaintenance(copyLeftUnfinished: true, layoutIsCurrent: true)
    _ = policy.ticked(now: Self.at(1))
    let damaged = Result<StoreCheck.Finding, StoreError>.success(
      StoreCheck.Finding(lines: (1...9).map { "problem \($0)" }, seconds: 3, priorityRefused: []))
    let (said, next) = policy.checked(damaged, path: "/db", now: Self.at(5).wall)
    #expect(next == [.copy(.salvage)])
    #expect(policy.check == .damaged(at: Self.at(5).wall, findings: (1...5).map { "problem \($0)" }))
    #expect(said.count == 1)
    let failure = StoreError.ioError(SQLiteFailure(operation: "read", resultCode: 10, message: "disk I/O error"))
    _ = policy.rebuilt(.failure(failure), path: "/db", now: Self.at(10))
    #expect(policy.ticked(now: Self.at(609)) == [])
    #expect(policy.ticked(now: Self.at(610)) == [.copy(.salvage)])
  }

  @Test("retention may delete once the check has run and while no copy is made: never before, never during a copy")
  func retentionWaits() {
    var healthy = StoreMaintenance(copyLeftUnfinished: false, layoutIsCurrent: true)
    #expect(!healthy.allowsDeletion)
    #expect(healthy.deletionGate == .waitingForCheck)
    _ = healthy.ticked(now: Self.at(1))
    #expect(!healthy.allowsDeletion)
    #expect(healthy.deletionGate == .waitingForCheck)
    _ = healthy.checked(Self.healthy, path: "/db", now: Self.at(5).wall)
    #expect(healthy.allowsDeletion)
    #expect(healthy.deletionGate == .open)

    var old = StoreMaintenance(copyLeftUnfinished: false, layoutIsCurrent: false)
    _ = old.ticked(now: Self.at(1))
    // The check runs first; the conversion it leads to is what retention then waits for.
    #expect(old.deletionGate == .waitingForCheck)
    _ = old.checked(Self.healthy, path: "/db", now: Self.at(5).wall)
    #expect(!old.allowsDeletion)
    #expect(old.deletionGate == .waitingForCopy)
    _ = old.rebuilt(.success(Self.progress(30_000, done: true)), path: "/db", now: Self.at(6))
    // Copied, and brought level until the next start puts it in place: still none.
    #expect(!old.allowsDeletion)
    #expect(old.deletionGate == .waitingForCopy)
  }
}
