import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// Replay over the generated drives and over every real receiver log.
struct ReplayTests {
  static func replay(_ url: URL, window: DateInterval? = nil) throws -> ReplayResult {
    try GPSDLogReplay.replay(contentsOf: url, options: GPSDLogReplay.Options(window: window))
  }

  @Test(arguments: DriveFixture.names)
  func eachDriveGivesTheGeneratorsFigure(_ name: String) throws {
    let drive = try DriveFixture.named(name)
    let result = try Self.replay(drive.json)
    #expect(result.captureSessions == drive.captureSessions)
    #expect(result.distance.gaps == drive.gaps)
    if drive.metres > 0 {
      let error = abs(result.distance.metres - drive.metres) / drive.metres
      #expect(
        error <= drive.toleranceFraction, "\(name): replay \(result.distance.metres) m, generator \(drive.metres) m")
    } else {
      #expect(result.distance.metres == 0)
      // A receiver parked and reporting is one unbroken stretch of nothing: measured.
      #expect(result.distance.isMeasured == (drive.fixes > 0))
    }
    #expect(result.skippedLines == 0)
    #expect(result.statistics.received == drive.fixes + drive.secondsWithoutFix)
  }

  @Test func theCityDriveRejectsTheMultipathJumpAndSeesEveryGap() throws {
    let result = try Self.replay(DriveFixture.named("city-drive").json)
    #expect(result.statistics.rejected[.implausibleSpeed] == 2)
    // The first fix after the warm-up, the tunnel and the replug carries gpsd's no-fix DOP.
    #expect(result.statistics.rejected[.poorAccuracy] == 3)
    #expect(result.distance.segments == 3)
    #expect(result.distance.isPartial)
    // The seven minutes parked are held still: a held sample a minute and nothing else,
    // so the stop is one unbroken stretch with the drives either side. Each capture
    // session also ends with the last fix that stood still (the replug, the end).
    let held = result.samples.filter(\.isHeld)
    #expect(held.count == 9)
    #expect(result.statistics.held == 9)
    let times = held.prefix(7).map(\.timestamp.timeIntervalSince1970)
    #expect(zip(times, times.dropFirst()).allSatisfy { (60...61).contains($1 - $0) })
  }

  @Test func aParkedReceiverRecordsNothingInOneUnbrokenStretch() throws {
    let result = try Self.replay(DriveFixture.named("parked").json)
    // Its first fix, then a held sample a minute for twenty minutes and its last fix.
    #expect(result.statistics.accepted == 21)
    #expect(result.statistics.held == 20)
    #expect(result.statistics.rejected[.negligibleMovement] == 1178)
    let quality = RouteQuality(distance: result.distance)
    #expect(quality.summary == "0.0 mi recorded")
    #expect(quality.details == ["1 unbroken stretch of capture", "No capture gaps detected"])
  }

  @Test func linesThatAreNotGPSDJSONAreSkippedAndCounted() {
    var replay = GPSDLogReplay()
    let log = """
      # a comment
      {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
      $GPRMC,235943.00,V,,S,,W,,,091223,,*1A

      {"class":"TPV","mode":3,"time":"2024-05-01T10:00:00.000Z","lat":51.5,"lon":-0.12,"eph":10,"speed":10}
      {"class":"TPV","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":51.5001,"lon":-0.12,"eph":10,"speed":10}
      {"class":"TPV","mode":3,"time":
      """
    replay.feed(contents: Data(log.utf8))
    let result = replay.finish()
    #expect(result.lines == 7)
    #expect(result.skippedLines == 4)
    #expect(result.statistics.accepted == 2)
    #expect(abs(result.distance.metres - 11.12) < 0.01)
  }

  @Test func crlfLinesAndAMissingFinalNewlineAreRead() {
    var replay = GPSDLogReplay()
    replay.feed(contents: Data("{\"class\":\"SKY\"}\r\n{\"class\":\"SKY\"}\r\n\r\n{\"class\":\"SKY\"}".utf8))
    let result = replay.finish()
    #expect(result.lines == 4)
    #expect(result.skippedLines == 1)
  }

  @Test func aSecondVersionIsANewConnectionAndShowsAsAGap() {
    var replay = GPSDLogReplay()
    let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    var lines = [version]
    for second in 0..<20 {
      if second == 10 { lines.append(version) }
      let lat = 51.5 + Double(second) * 0.0001
      lines.append(
        #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:\#(second < 10 ? "0" : "")\#(second).000Z","lat":\#(lat),"lon":-0.12,"eph":10,"speed":11.12}"#
      )
    }
    for line in lines { replay.feed(line: line) }
    let result = replay.finish()
    #expect(result.captureSessions == 2)
    #expect(result.distance.segments == 2)
    #expect(result.distance.gaps == 1)
    #expect(result.statistics.accepted == 20)
  }

  @Test func aWindowShowsUncoveredEnds() throws {
    let drive = try DriveFixture.named("short-drive")
    let start = Date(timeIntervalSince1970: 1_717_228_800)
    let window = DateInterval(start: start - 600, end: start + 3600)
    let result = try Self.replay(drive.json, window: window)
    #expect(result.distance.gaps == 2)
    #expect(result.distance.isPartial)
  }

  /// Every gpsd JSON log of a real receiver replays without a crash, and every line is
  /// accounted for.
  @Test(.requiresGPSDLogs) func everyRealLogReplays() throws {
    let logs = try RealLogs.all()
    #expect(logs.count >= 150)
    var totalLines = 0
    for log in logs {
      let data = try Data(contentsOf: log)
      let result = try Self.replay(log)
      let expectedLines = RealLogs.lineCount(data)
      #expect(result.lines == expectedLines, "\(log.lastPathComponent)")
      #expect(result.skippedLines <= result.lines)
      #expect(result.statistics.accepted + result.statistics.rejectedTotal == result.statistics.received)
      #expect(result.distance.metres.isFinite && result.distance.metres >= 0)
      totalLines += result.lines
    }
    #expect(totalLines > 100_000)
  }
}

/// gpsd's regression logs in ../shared/gpsd-logs.
enum RealLogs {
  static func all() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: TestPaths.gpsdLogs, includingPropertiesForKeys: nil)
      .filter { $0.lastPathComponent.hasSuffix(".log.chk") }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  static func name(_ url: URL) -> String {
    String(url.lastPathComponent.dropLast(".log.chk".count))
  }

  /// Lines as replay counts them: split on LF, a final line without LF counted too.
  static func lineCount(_ data: Data) -> Int {
    let newlines = data.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    return newlines + (data.last == 10 || data.isEmpty ? 0 : 1)
  }

  /// The naive distance: the sum of distances between consecutive TPVs with a 2D/3D fix
  /// and a position, in file order, with no judgement at all.
  static func naiveMetres(_ data: Data) -> (metres: Double, fixes: Int) {
    var previous: GeoCoordinate?
    var metres = 0.0
    var fixes = 0
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(whereSeparator: \.isNewline) {
      guard case let .tpv(tpv)? = GPSDJSONDecoder.decode(line), tpv.mode.hasFix,
        let latitude = tpv.latitude, let longitude = tpv.longitude
      else { continue }
      let position = GeoCoordinate(latitude: latitude, longitude: longitude)
      guard position.isValid else { continue }
      if let previous { metres += GeographicDistance.metres(from: previous, to: position) }
      previous = position
      fixes += 1
    }
    return (metres, fixes)
  }
}
