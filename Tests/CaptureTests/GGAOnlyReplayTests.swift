import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// A receiver that sends GGA only (issue 28, class 4), recorded from a real gpsd with
/// `gpspipe -w -uu` as a driver would record it, then replayed: the stamps date its fixes
/// by arrival; the same lines without the stamps (`gpspipe -w`) date nothing and say why.
@Suite(.serialized, .requiresGPSFake) struct GGAOnlyReplayTests {
  static let truth = TestPaths.fixtures.appendingPathComponent("truth")

  /// Feeds Fixtures/truth/gga-only.nmea through a pseudo-terminal to a real gpsd at the
  /// receiver's pace (two sentences a second) and returns what `gpspipe -w -uu` wrote.
  static func recordWithArrivalStamps() throws -> String {
    let receiver = try GPSDPseudoReceiver(nmea: truth.appendingPathComponent("gga-only.nmea"), secondsPerLine: 0.5)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let directory = try TestPaths.temporaryDirectory("gga-only-uu")
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("gpspipe-uu.log")
    let pipe = try GPSDChildProcess(
      executable: "/usr/bin/gpspipe", arguments: ["-w", "-uu", "127.0.0.1:\(receiver.port)"], outputPath: log.path)
    defer { pipe.killGroup() }
    // gpspipe has its WATCH in before the receiver says anything.
    let watching = Date(timeIntervalSinceNow: 10)
    while (try? String(contentsOf: log, encoding: .utf8))?.contains("\"class\":\"WATCH\"") != true, Date() < watching {
      usleep(50_000)
    }
    receiver.startFeeding()
    #expect(receiver.waitForProgress(receiver.lineCount, timeout: Double(receiver.lineCount) * 0.5 + 30))
    // The last cycle's reports reach gpspipe: its output stops growing.
    var written = -1
    let settled = Date(timeIntervalSinceNow: 30)
    while Date() < settled {
      let size = (try? String(contentsOf: log, encoding: .utf8))?.utf8.count ?? 0
      if size == written { break }
      written = size
      usleep(1_500_000)
    }
    pipe.killGroup()
    return try String(contentsOf: log, encoding: .utf8)
  }

  /// The `"lat"` and `"lon"` members of a TPV line, as gpsd wrote them.
  static func position<Line: StringProtocol>(of line: Line) -> [Substring] {
    let text = Substring(line)
    return ["\"lat\":", "\"lon\":"].map { key in
      guard let start = text.range(of: key)?.upperBound else { return "" }
      return text[start...].prefix { $0 != "," && $0 != "}" }
    }
  }

  static func replay(_ text: String) -> ReplayResult {
    var replay = GPSDLogReplay()
    replay.feed(contents: Data(text.utf8))
    return replay.finish()
  }

  @Test func aStampedLogDatesTheFixesByArrivalAndAPlainOneSaysWhyItCannot() throws {
    let recorded = try Self.recordWithArrivalStamps()
    let lines = recorded.split(whereSeparator: \.isNewline)
    let tpvs = lines.filter { $0.contains("\"class\":\"TPV\"") }
    // gpsd reports every fix without a time: the receiver sends no date.
    #expect(!tpvs.isEmpty && tpvs.allSatisfy { !$0.contains("\"time\"") })
    #expect(lines.allSatisfy { GPSPipeTimestamp.split($0).arrival != nil })

    let stamped = Self.replay(recorded)
    let expectedTruth = try TruthTests.truthCase("gga-only")
    #expect(stamped.skippedLines == 0)
    #expect(stamped.statistics.received == tpvs.count)
    #expect(stamped.statistics.datedByArrival == stamped.statistics.accepted)
    #expect(stamped.statistics.undated == 0)
    #expect(stamped.statistics.rejected[.invalidCoordinate] == nil)
    #expect(stamped.captureSessions == 1)
    #expect(stamped.distance.gaps == 0)
    #expect(stamped.distance.positionsDatedByArrival == stamped.distance.usablePositions)
    // 75 fixes (gpsd 3.22 reports the first cycle twice, or drops it while it opens the
    // device; 3.25 reports every fix twice, after its GGA and after its GSA, the second
    // dated by its own arrival, at the same place, so refused as no movement); the parked
    // ones refused, and the moves that do not clear their ends' error estimates: GGA carries
    // no speed and gpsd computes none without a date, so nothing else caps what position
    // noise adds (`unspeededMoveErrorFraction`).
    let fixes = tpvs.indices.filter { $0 == 0 || Self.position(of: tpvs[$0]) != Self.position(of: tpvs[$0 - 1]) }
    #expect(fixes.count == 75 || fixes.count == 76)
    #expect(stamped.statistics.accepted == 23)
    #expect(stamped.statistics.held == 1)
    #expect(stamped.statistics.rejected == [.negligibleMovement: stamped.statistics.received - 23])
    // 535.5-535.8 m of 540 m driven, a floor: every step kept, it was 552.9 m, 2.4 % above.
    #expect(abs(stamped.distance.metres - 535.6) < 0.5, "\(stamped.distance.metres) m")
    #expect(stamped.distance.metres <= expectedTruth.trueMetres)
    let ratio = stamped.distance.metres / expectedTruth.trueMetres
    #expect(abs(ratio - 1) <= expectedTruth.tolerance)
    let quality = RouteQuality(distance: stamped.distance, unit: .kilometres)
    #expect(quality.summary == "0.5 km recorded · dated by arrival")
    #expect(
      quality.qualifyingSentences == [
        "The receiver sends no date, so its positions were dated by the box's clock when they arrived."
      ])

    // The same lines as `gpspipe -w` writes them: nothing can be dated, and replay says why.
    let plain = lines.map { GPSPipeTimestamp.split($0).rest }.joined(separator: "\n")
    let unstamped = Self.replay(plain)
    #expect(unstamped.distance.usablePositions == 0)
    #expect(unstamped.statistics.accepted == 0)
    #expect(unstamped.statistics.rejected == [.invalidCoordinate: tpvs.count])
    #expect(unstamped.statistics.undated == tpvs.count)
    print(
      "gga-only via gpsd + gpspipe -w -uu: \(tpvs.count) TPV, kept \(stamped.statistics.accepted) "
        + "(\(stamped.statistics.held) held), \(stamped.distance.metres) m of \(expectedTruth.trueMetres) m; "
        + "rejected \(stamped.statistics.rejected)")
  }
}

/// A log stamped by `gpspipe -u` whose fixes have their receiver's time replays exactly as
/// the same log unstamped: the stamps are read off, and no fix with a time is re-dated.
struct StampedLogReplayTests {
  @Test(arguments: ["cold-start", "rmc-only"])
  func aStampedLogWithTimedFixesReplaysAsThePlainOne(_ name: String) throws {
    let plain = try String(
      contentsOf: TestPaths.fixtures.appendingPathComponent("truth/\(name).json"), encoding: .utf8)
    // Stamped a tenth of a second apart, from a day other than the fixes'.
    let stamped = plain.split(whereSeparator: \.isNewline).enumerated().map { index, line in
      let tenths = 1_796_217_000_0 + index
      return "\(tenths / 10).\(tenths % 10)00000: \(line)"
    }.joined(separator: "\n")
    let fromPlain = GGAOnlyReplayTests.replay(plain)
    let fromStamped = GGAOnlyReplayTests.replay(stamped)
    #expect(fromStamped.skippedLines == fromPlain.skippedLines)
    #expect(fromStamped.lines == fromPlain.lines)
    #expect(fromStamped.statistics == fromPlain.statistics)
    #expect(fromStamped.samples == fromPlain.samples)
    #expect(fromStamped.distance == fromPlain.distance)
    #expect(fromStamped.statistics.datedByArrival == 0)
    #expect(fromStamped.statistics.accepted > 100)
  }
}
