import ControlProtocol
import Foundation
import TestSupport
import Testing

@testable import Daemon
@testable import Store

/// The recording component's database on a real tmpfs that a filler file fills: the one
/// session that meets the full disk ends, capture holds (fixes dropped and counted, no
/// session minted for each), the tick retries the store with back-off, and one new
/// session begins once space is back. Fixes and ticks are handed in, so every step is
/// checked in order; the daemon-level test (ReliabilityTests) does the same with real
/// processes in real time.
@Suite("recording on a real full disk holds capture and retries on the tick", .serialized)
struct RecordingFullDiskHoldTests {
  @Test(.requiresTmpfs)
  func fullTmpfsHoldsThenResumesInOneSession() throws {
    let mount = try TmpfsMount(kilobytes: 2048)
    defer { mount.unmount() }
    let harness = try RecordingHarness(directory: mount.directory)
    defer { harness.stop() }
    harness.connect()
    _ = try harness.component.startShift(harness.store)
    for second in 0..<10 { harness.fix(second) }
    #expect(harness.status().capture.session == "s1")
    let kept = try harness.store.samples(ofShift: 1)
    #expect(kept.count == 10)

    // The log emptied first, so the next commit needs a block of its own: a 1 KiB frame
    // could otherwise land in the unused end of one the log already holds.
    try harness.store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try mount.fill()
    #expect(mount.freeBytes == 0)
    harness.fix(10)
    let failed = harness.status()
    #expect(failed.store.ok == false)
    #expect(failed.store.lastError?.hasPrefix("1 samples not saved: disk full: ") == true)
    #expect(failed.capture.session == nil)
    #expect(
      harness.logger.all.contains {
        $0.hasPrefix("capture session s1 of shift 1 ended: a sample could not be saved: 1 samples not saved: disk full")
      })

    for second in 11..<41 { harness.fix(second) }
    let holding = harness.status()
    #expect(holding.capture.session == nil)
    #expect(holding.capture.rejected == [RecordingComponent.droppedWhileStoreFailing: 30])
    // The first tick arms the retry a second ahead; the retries fail while the disk is
    // full and wait 2 s, then 4 s.
    harness.tick(after: 0.5)  // armed: due at +1.5
    harness.tick(after: 1.0)  // +1.5: fails, next at +3.5
    harness.tick(after: 2.0)  // +3.5: fails, next at +7.5
    harness.tick(after: 3.0)  // +6.5: not yet
    #expect(harness.status().store.ok == false)
    #expect(harness.logger.all.filter { $0.hasPrefix("store write failed: ") }.count == 1)
    #expect(harness.logger.all.filter { $0.contains(" started for shift ") }.count == 1)

    try mount.removeFiller()
    harness.fix(41)
    harness.tick(after: 0.5)  // +7.0: not yet
    #expect(harness.status().store.ok == false, "the retry after the second failed one waits 4 s")
    #expect(harness.status().capture.rejected == [RecordingComponent.droppedWhileStoreFailing: 31])
    harness.tick(after: 1.0)  // +8.0: the retry writes
    let recovered = harness.status()
    #expect(recovered.store.ok == true)
    #expect(recovered.store.lastError == nil)
    #expect(harness.logger.all.contains { $0.hasPrefix("store writes succeed again") })
    // The retry's write was the end of s1 the full disk had refused.
    #expect(try harness.store.captureSessions().map(\.endReason) == ["save_failed"])

    for second in 42..<47 { harness.fix(second) }
    let resumed = harness.status()
    #expect(resumed.capture.session == "s2")
    #expect(resumed.capture.accepted == 5)
    #expect(resumed.capture.rejected == [:])
    #expect(harness.logger.all.filter { $0.contains(" started for shift ") }.count == 2)
    let after = try harness.store.samples(ofShift: 1)
    #expect(Array(after.prefix(10)) == kept)
    #expect(after.count == 15)
    #expect(try harness.store.captureSessions().map(\.id.rawValue) == ["s1", "s2"])
    #expect(try harness.store.database.scalarText("PRAGMA integrity_check") == "ok")
  }
}
