import DashPilotCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Store

/// A real process writing through the real store, killed with SIGKILL while it writes.
@Suite struct CrashDurabilityTests {
  /// `dashpilot-store-child`, built beside the test binary.
  static var childExecutable: URL? {
    let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("dashpilot-store-child")
    let candidates = [
      beside,
      TestPaths.repositoryRoot.appendingPathComponent(".build/debug/dashpilot-store-child"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts the child, waits until it has reported `commits` commits, kills it with
  /// SIGKILL and returns the highest committed count it reported.
  static func runChildAndKill(database: String, batchSize: Int, commits: Int) throws -> Int {
    let executable = try #require(childExecutable, "dashpilot-store-child was not built beside the tests")
    let process = Process()
    process.executableURL = executable
    process.arguments = [database, String(batchSize)]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    var buffer = ""
    var reported: [Int] = []
    var failure: String?
    let reader = output.fileHandleForReading
    while reported.count < commits {
      let chunk = reader.availableData
      if chunk.isEmpty { break }  // the child exited
      buffer += String(decoding: chunk, as: UTF8.self)
      while let newline = buffer.firstIndex(of: "\n") {
        let line = String(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if line.hasPrefix("committed "), let n = Int(line.dropFirst("committed ".count)) { reported.append(n) }
        if line.hasPrefix("failed ") { failure = line }
      }
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(failure == nil, "child failed: \(failure ?? "") \(stderr)")
    // One read can bring several lines, so the child may have reported a few more commits
    // than asked for before the kill; fewer means it stopped or failed early.
    #expect(reported.count >= commits, "child reported \(reported.count) commits; stderr: \(stderr)")
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGKILL)
    return reported.last ?? 0
  }

  @Test func aProcessKilledMidIngestLeavesEveryCommittedBatch() throws {
    let file = try TemporaryStoreFile("sigkill")
    let batchSize = 7
    var previousRows = 0
    for round in 1...3 {
      let reported = try Self.runChildAndKill(database: file.path, batchSize: batchSize, commits: 40 * round)
      let store = try file.open()
      #expect(store.openReport.movedAside == nil)
      #expect(try store.integrityCheck() == ["ok"])
      let shift = try #require(try store.openShift())
      let rows = try store.samples(ofShift: shift.id)
      // Every reported commit is there; a commit the child made but had no time to report
      // may be there too; a half-written batch never is.
      #expect(rows.count >= reported)
      #expect(rows.count > previousRows)
      #expect(rows.count % batchSize == 0)
      let mismatch = rows.indices.first { !StoreIngestPattern.matches(rows[$0], $0) }
      #expect(mismatch == nil, "row \(mismatch ?? -1) does not hold sample \(mismatch ?? -1)")
      #expect(try store.sampleCount(ofShift: shift.id) == rows.count)
      // Each run was its own capture session, so the measurement sees each kill as a gap.
      #expect(Set(rows.map(\.captureSessionID)).count == round)
      #expect(try store.recordedDistance(ofShift: shift.id).gaps == round - 1)
      previousRows = rows.count
    }
  }
}
