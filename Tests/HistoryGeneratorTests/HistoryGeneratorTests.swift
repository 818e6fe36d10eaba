import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import HistoryGenerator
@testable import Store

/// The generator behind the year benchmarks and the long-history tests: files written
/// through the store's own code, the same rows for the same parameters, shifts that look
/// like what capture keeps.
@Suite("history generator")
struct HistoryGeneratorTests {
  /// A Tuesday.
  static let until = try! HistoryParameters.day("2026-12-01")

  static func write(_ parameters: HistoryParameters) throws -> (URL, HistorySummary) {
    let directory = try TestPaths.temporaryDirectory("history")
    let path = directory.appendingPathComponent("history.sqlite").path
    return (directory, try HistoryWriter.write(parameters, to: path))
  }

  static func rows(_ store: SampleStore) throws -> [[RouteSample]] {
    try store.shifts().map { try store.samples(ofShift: $0.id) }
  }

  @Test("shifts fall on the working days before --until, oldest first")
  func workingDays() {
    let days = WorkingDays.days(count: 6, before: Self.until).map(WorkingDays.text)
    #expect(days == ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30"])
  }

  @Test("a history is written with the store's schema and reads back as shifts capture would have kept")
  func writesShiftsCaptureWouldKeep() throws {
    let (directory, summary) = try Self.write(
      HistoryParameters(rate: 1, shifts: 3, hours: 2, seed: 3, until: Self.until))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SampleStore(path: directory.appendingPathComponent("history.sqlite").path)
    #expect(try store.database.scalarInt64("PRAGMA user_version") == Int64(Schema.latestVersion))
    #expect(try store.database.scalarInt64("PRAGMA page_size") == 1024)
    #expect(summary.pageSize == 1024)
    let shifts = try store.shifts()
    #expect(shifts.map { WorkingDays.text($0.shift.startedAt) } == ["2026-11-26", "2026-11-27", "2026-11-30"])
    #expect(shifts.allSatisfy { $0.startedBy == .movement && $0.endedBy != nil })
    let rows = try Self.rows(store)
    #expect(rows.map(\.count).reduce(0, +) == summary.counts.samples)
    #expect(try store.captureSessions().count == summary.counts.captureSessions)
    for (shift, samples) in zip(shifts, rows) {
      let window = try #require(shift.shift.window)
      #expect(samples.first?.timestamp == window.start, "a shift starts with its first fix")
      #expect(samples.last.map { $0.timestamp <= window.end } == true)
      for (previous, next) in zip(samples, samples.dropFirst()) {
        #expect(previous.timestamp < next.timestamp)
        guard next.isHeld, previous.captureSessionID == next.captureSessionID else { continue }
        // A held sample about once a minute while standing, as capture keeps them.
        #expect(next.timestamp.timeIntervalSince(previous.timestamp) >= 60)
      }
    }
    // Seed 3 gives these three shifts two capture gaps, each a new session. The measurement
    // sees exactly those: nothing else breaks continuity (a standing van keeps a sample a
    // minute, within the 120 s interval; each shift's window starts at its first fix and
    // ends within a minute of its last).
    #expect(summary.counts.gaps == 2)
    #expect(summary.counts.captureSessions == 3 + 2)
    let measuredGaps = try shifts.map { try store.recordedDistance(ofShift: $0.id).gaps }.reduce(0, +)
    #expect(measuredGaps == 2)
    #expect(summary.counts.heldSamples > 0)
  }

  @Test("the same parameters give the same rows: a file cached under its key is the file the key names")
  func sameParametersSameRows() throws {
    let parameters = HistoryParameters(rate: 1, shifts: 2, hours: 1, seed: 42, until: Self.until)
    let (first, a) = try Self.write(parameters)
    let (second, b) = try Self.write(parameters)
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    #expect(a.counts == b.counts)
    let left = try SampleStore(path: first.appendingPathComponent("history.sqlite").path)
    let right = try SampleStore(path: second.appendingPathComponent("history.sqlite").path)
    #expect(try Self.rows(left) == Self.rows(right))
    #expect(try left.captureSessions() == right.captureSessions())
    // Seed 42's two shifts as generator version 1 writes them; a change to the generator
    // that moves these must bump HistoryParameters.generatorVersion (the cache key).
    #expect(HistoryParameters.generatorVersion == 1)
    #expect(a.counts.samples == 4645)
    #expect(a.counts.captureSessions == 2)
  }

  @Test("a shift's rows depend on its day and the seed only: three months are the year's last quarter")
  func shorterHistoryIsTheTail() throws {
    let (long, _) = try Self.write(HistoryParameters(rate: 1, shifts: 3, hours: 0.5, seed: 3, until: Self.until))
    let (short, _) = try Self.write(HistoryParameters(rate: 1, shifts: 1, hours: 0.5, seed: 3, until: Self.until))
    defer {
      try? FileManager.default.removeItem(at: long)
      try? FileManager.default.removeItem(at: short)
    }
    let longRows = try Self.rows(SampleStore(path: long.appendingPathComponent("history.sqlite").path))
    let shortRows = try Self.rows(SampleStore(path: short.appendingPathComponent("history.sqlite").path))
    #expect(shortRows.count == 1 && longRows.count == 3)
    #expect(shortRows.last == longRows.last)
  }

  @Test("at 10 Hz every fix is kept while driving, 100 ms apart")
  func tenHertz() throws {
    let (directory, summary) = try Self.write(
      HistoryParameters(rate: 10, shifts: 1, hours: 0.25, seed: 5, until: Self.until))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SampleStore(path: directory.appendingPathComponent("history.sqlite").path)
    let samples = try #require(try Self.rows(store).first)
    let moving = zip(samples, samples.dropFirst()).filter { !$0.0.isHeld && !$0.1.isHeld }
    #expect(moving.count > 5_000)
    // Fix times are whole milliseconds; a difference of two of them as Double is within a
    // microsecond of its value.
    #expect(moving.allSatisfy { $0.1.timestamp.timeIntervalSince($0.0.timestamp) >= 0.1 - 1e-6 })
    #expect(moving.filter { abs($0.1.timestamp.timeIntervalSince($0.0.timestamp) - 0.1) < 1e-6 }.count > 5_000)
    #expect(summary.counts.samples == samples.count)
  }

  @Test("the 0.1.0 layout keeps that release's file: 4 KiB pages, AUTOINCREMENT, its three shifts first")
  func releaseLayout() throws {
    let (directory, summary) = try Self.write(
      HistoryParameters(rate: 1, shifts: 2, hours: 0.5, seed: 9, layout: .release010, until: Self.until))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SampleStore(path: directory.appendingPathComponent("history.sqlite").path)
    #expect(summary.pageSize == 4096)
    #expect(try store.database.scalarInt64("PRAGMA page_size") == 4096)
    #expect(try store.database.scalarInt64("SELECT count(*) FROM sqlite_sequence WHERE name = 'samples'") == 1)
    let shifts = try store.shifts()
    #expect(shifts.map(\.id) == [1, 2, 3, 4, 5])
    #expect(try [1, 2, 3].map { try store.sampleCount(ofShift: $0) } == [150, 150, 1016])
    // 0.1.0 left shift 3 open; the hands-free policy ends it at its last fix.
    #expect(shifts[2].endedBy == .captureLost)
    #expect(shifts[2].shift.endedAt == (try store.lastSample(ofShift: 3)?.timestamp))
    #expect(summary.counts.firstShiftID == 4 && summary.counts.lastShiftID == 5)
  }

  @Test("dashpilot-history writes what a test asks for (TestSupport.HistoryFile) and names an option it refuses")
  func executable() throws {
    let directory = try TestPaths.temporaryDirectory("history-cli")
    defer { try? FileManager.default.removeItem(at: directory) }
    // The parameters of sameParametersSameRows: the executable writes the library's rows.
    let file = try HistoryFile(
      path: directory.appendingPathComponent("history.sqlite").path, shifts: 2, hours: 1, seed: 42,
      until: "2026-12-01")
    #expect(file.counts["shifts"] == 2)
    #expect(file.counts["samples"] == 4645)
    #expect(file.counts["firstShiftID"] == 1 && file.counts["lastShiftID"] == 2)
    let store = try SampleStore(path: file.path)
    #expect(try store.shifts().map(\.id) == [1, 2])
    #expect(try store.sampleCount(ofShift: 1) + store.sampleCount(ofShift: 2) == 4645)

    let refused = try ProcessRunner.run(
      try DaemonBinaries.url("dashpilot-history"),
      ["--file", directory.appendingPathComponent("refused.sqlite").path, "--rate", "0"])
    #expect(refused.status == 2)
    #expect(refused.standardError == "dashpilot-history: --rate 0 must be between 0.1 and 50 fixes a second\n")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("refused.sqlite").path))
  }

  @Test("a parameter that cannot be used is named")
  func refusesParameters() {
    #expect(throws: HistoryParameterError.self) { try HistoryParameters(rate: 0).validate() }
    #expect((try? HistoryParameters(rate: 0).validate()) == nil)
    do {
      try HistoryParameters(hours: 30).validate()
      Issue.record("30 h shifts were accepted")
    } catch {
      #expect(error.description == "--hours 30 must be between 0.01 and 16")
    }
    #expect(throws: HistoryParameterError.self) { _ = try HistoryParameters.day("2026-13-01") }
  }
}
