import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

/// Power cuts at the store and capture level: a real child process capturing a live 10 Hz
/// stream through the real decoder, CaptureService, StoreSampleSink and SampleBatch into a
/// real SQLite file, killed with SIGKILL at random points, 20 times in one shift.
@Suite(.serialized) struct PowerCutTests {
  static let kills = 20

  @Test func twentyKillsLoseNoCommittedSampleAndAtMostASecondEach() throws {
    let directory = try TestPaths.temporaryDirectory("power-cut")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let streamStart = Date().timeIntervalSince1970 + 0.2
    var random = SeededGenerator(seed: 20_261_129)
    var sessionsSeen: [String] = []
    var worstLossMilliseconds: Int64 = 0
    var previousRows = 0

    for cycle in 1...Self.kills {
      let child = try CaptureChildProcess(database: database, streamStart: streamStart)
      #expect(child.wait(for: "committed "), "cycle \(cycle): no commit: \(child.lines) \(child.standardError)")
      // A random point within the next two seconds: mid-batch, mid-commit, mid-sleep.
      child.read(for: Double(random.next() % 2_000) / 1_000)
      child.killHard()
      #expect(child.process.terminationReason == .uncaughtSignal)
      #expect(
        !child.lines.contains { $0.hasPrefix("failed") },
        "cycle \(cycle): \(child.lines.filter { $0.hasPrefix("failed") })")
      #expect(
        child.lines.first == "ready \(sessionsSeen.count)",
        "cycle \(cycle) began with \(child.lines.first ?? "nothing")")

      let store = try SampleStore(path: database)
      #expect(store.openReport.movedAside == nil)
      #expect(try store.integrityCheck() == ["ok"], "cycle \(cycle)")
      let shift = try #require(try store.openShift())
      let stored = try store.samples(ofShift: shift.id)
      let storedTimes = Set(stored.map { Int64(($0.timestamp.timeIntervalSince1970 * 1000).rounded()) })
      let pending = child.values("pending")
      let committed = child.values("committed").max() ?? 0
      // No committed sample is lost.
      let lostCommitted = pending.filter { $0 <= committed && !storedTimes.contains($0) }
      #expect(lostCommitted.isEmpty, "cycle \(cycle): committed samples lost: \(lostCommitted)")
      // What was lost is only the tail that had not yet been written: at most about a second.
      let lost = pending.filter { !storedTimes.contains($0) }
      if let firstLost = lost.min(), let lastPending = pending.max() {
        worstLossMilliseconds = max(worstLossMilliseconds, lastPending - firstLost)
        #expect(
          lastPending - firstLost <= 1_500,
          "cycle \(cycle): lost \(lost.count) samples over \(lastPending - firstLost) ms")
        #expect(lost == pending.filter { $0 >= firstLost }, "cycle \(cycle): a hole, not a tail, was lost")
      }
      // Each run is a capture session of its own, and every row is the drive's own fix.
      let session = try #require(child.lines.first { $0.hasPrefix("session ") }.map { String($0.dropFirst(8)) })
      #expect(!sessionsSeen.contains(session))
      sessionsSeen.append(session)
      #expect(stored.count > previousRows)
      let newRows = stored[previousRows...]
      #expect(newRows.allSatisfy { $0.captureSessionID?.rawValue == session })
      let misplaced = stored.first { sample in
        guard let k = ReliabilityDrive.index(of: sample.timestamp) else { return true }
        return GeographicDistance.metres(from: sample.coordinate, to: ReliabilityDrive.coordinate(k)) > 0.02
      }
      #expect(misplaced == nil, "a stored row is no fix of the drive: \(String(describing: misplaced))")
      #expect(StoredShiftInvariants.violations(in: stored) == [])
      previousRows = stored.count
    }

    // One more run, stopped cleanly, closes the shift's story.
    let last = try CaptureChildProcess(database: database, streamStart: streamStart, stopAfter: 4)
    #expect(last.waitForExit() == 0, "\(last.lines) \(last.standardError)")
    #expect(last.lines.last == "done")
    let store = try SampleStore(path: database)
    #expect(try store.integrityCheck() == ["ok"])
    let shift = try #require(try store.openShift())
    let stored = try store.samples(ofShift: shift.id)
    let storedTimes = Set(stored.map { Int64(($0.timestamp.timeIntervalSince1970 * 1000).rounded()) })
    #expect(last.values("pending").allSatisfy(storedTimes.contains))
    // The sessions: one per run, every killed one ended as a power cut by the next start.
    let sessions = try store.captureSessions()
    #expect(sessions.count == Self.kills + 1)
    #expect(sessions.dropLast().allSatisfy { $0.endReason == "power_cut" })
    #expect(sessions.last?.endReason == "capture_stopped")
    #expect(Set(stored.compactMap(\.captureSessionID?.rawValue)).count == Self.kills + 1)
    // The figure shows every kill as a gap.
    let distance = try store.recordedDistance(ofShift: shift.id)
    #expect(distance.gaps == Self.kills)
    #expect(distance.segments == Self.kills + 1)
    #expect(distance.isPartial)
    print(
      "power-cut: \(Self.kills) kills, \(stored.count) rows kept, worst loss \(worstLossMilliseconds) ms of fix time")
  }
}
