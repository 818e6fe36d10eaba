import Capture
import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The Done-when of issue 5: a parked receiver records nothing worth a decimal, a moving
/// one keeps its distance. Prints the table of naive against recorded metres for every
/// real log with a fix.
@Suite(.requiresGPSDLogs) struct StationaryHoldTests {
  /// Logs whose receiver moved, by their own description: a sailing boat, a car, a
  /// powerboat, a car that started driving, a phone in a car, a laptop receiver carried
  /// from a window into a computer case (garmin-10x). Every other log with a fix
  /// is a receiver standing still (several say so: sirf2, ublox-glo, navisys-gr701w,
  /// haicom-305N, blumax-gps009, motorola-t805, myguide-3100 ...).
  static let moving: Set<String> = [
    "bundg_zeus_9", "bt451", "humminbird-M37", "nl2008u", "quectel-eg25-g", "garmin-10x",
  ]

  struct Row {
    var name: String
    var fixes: Int
    var naive: Double
    var recorded: Double
    var accepted: Int
  }

  static func table() throws -> [Row] {
    try RealLogs.all().compactMap { url in
      let data = try Data(contentsOf: url)
      let naive = RealLogs.naiveMetres(data)
      guard naive.fixes > 0 else { return nil }
      var replay = GPSDLogReplay()
      replay.feed(contents: data)
      let result = replay.finish()
      return Row(
        name: RealLogs.name(url), fixes: naive.fixes, naive: naive.metres,
        recorded: result.distance.metres, accepted: result.statistics.accepted)
    }
  }

  @Test func everyStationaryLogRecordsAtMost25Metres() throws {
    let rows = try Self.table()
    print("log | fixes | naive m | recorded m | kept")
    for row in rows {
      print(String(format: "%@ | %d | %.1f | %.1f | %d", row.name, row.fixes, row.naive, row.recorded, row.accepted))
    }
    #expect(rows.count == 167)
    let stationary = rows.filter { !Self.moving.contains($0.name) }
    #expect(stationary.count == 161)
    for row in stationary {
      #expect(row.recorded <= 25, "\(row.name) records \(row.recorded) m standing still")
    }
    for name in ["sirf2", "ublox-glo", "navisys-gr701w", "haicom-305N"] {
      let row = try #require(rows.first { $0.name == name })
      #expect(row.recorded == 0, "\(name): \(row.recorded) m of \(row.naive) m naive")
      #expect(row.naive > 140)
    }
  }

  @Test func aMovingBoatKeepsAtLeast95PercentOfItsNaiveDistance() throws {
    let row = try #require(try Self.table().first { $0.name == "bundg_zeus_9" })
    #expect(row.recorded >= 0.95 * row.naive, "\(row.recorded) of \(row.naive)")
  }

  /// bt451 is three recordings in one file (no fix indoors; stationary at 15:25; moving in
  /// a car at 14:33): its clock goes back 52 minutes between the last two. Its naive
  /// 1,964 m is almost all the 1.8 km teleport between them. The car's five fixes precede
  /// the last sample retained for the shift, so the capture rule rejects them as out of
  /// order (one verdict for each of its five instants, however many times gpsd reported
  /// it), and nothing else in it moved: it records nothing (its one sample and, at the end
  /// of the log, its last still fix, held).
  @Test func bt451sCarFixesPrecedeItsStationaryOnesAndAreRejected() throws {
    let url = TestPaths.gpsdLogs.appendingPathComponent("bt451.log.chk")
    let result = try GPSDLogReplay.replay(contentsOf: url)
    #expect(result.distance.metres == 0)
    #expect(result.statistics.accepted == 2)
    #expect(result.statistics.held == 1)
    #expect(result.statistics.rejected[.outOfOrder] == 5)
  }
}
