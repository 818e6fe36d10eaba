import Foundation
import TestSupport
import Testing

/// `dashpilotctl import` judges a track by the capture rules, through the real client and
/// the real daemon: a GPX another logger wrote (../shared/real-logs) and one whose points
/// say they had no fix.
@Suite struct ImportJudgedTests {
  static func importing(_ file: URL, into daemon: DaemonUnderTest) throws -> [String: Any] {
    let outcome = try daemon.control(["import", file.path, "--json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
  }

  /// A Holux M-241 logging a 30-minute car loop near Rome, 1 Hz, with fix type, HDOP and
  /// speed on every point: its speeds add up to 9.75 km, the naive sum of its steps to
  /// 10.46 km. Every point used to be stored and measured (10.4 km); the figure is now
  /// carried by the logger's speeds.
  @Test(.requiresSharedRealLogs) func aRealLoggersTrackIsJudgedAndMeasuredUnderItsSpeeds() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let gpx = SharedLogs.realLogs.appendingPathComponent("gpsbabel_holux_m241_car_loop.gpx")
    let result = try Self.importing(gpx, into: daemon)
    let tally = try #require(result["import"] as? [String: Any])
    #expect(tally["points"] as? Int == 1199)
    let kept = try #require(tally["kept"] as? Int)
    let rejected = try #require(tally["rejected"] as? [String: Int])
    #expect(kept + rejected.values.reduce(0, +) == 1199)
    #expect(tally["accuracy_assumed"] as? Int == 0)
    let metres = try #require((result["distance"] as? [String: Any])?["metres"] as? Double)
    #expect(metres >= 0.95 * 9_750 && metres <= 9_750 * 1.01, "\(metres) m")
    // Every point has a speed: the rule for moves without speeds leaves it as it was.
    #expect(abs(metres - 9_729.1) < 0.05, "\(metres) m")
    #expect(result["summary"] as? String == String(format: "%.1f mi recorded · partial route", metres / 1609.344))
  }

  /// Points marked `<fix>none</fix>` are refused as no fix, like a live TPV of mode 1; a
  /// track without HDOP is judged with the assumed accuracy and says so.
  @Test func pointsWithoutAFixAreRefusedAndMissingHDOPIsAssumed() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    var points: [String] = []
    for second in 0..<40 {
      let lat = 51.5 + Double(second) * 0.0001
      let fix = (10..<15).contains(second) ? "none" : "3d"
      points.append(
        #"<trkpt lat="\#(lat)" lon="-0.12"><time>2024-05-01T10:00:\#(String(format: "%02d", second))Z</time><speed>11.12</speed><fix>\#(fix)</fix></trkpt>"#
      )
    }
    let gpx = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0">
      <trk><trkseg>\(points.joined(separator: "\n"))</trkseg></trk></gpx>
      """
    let directory = try TestPaths.temporaryDirectory("import-fix")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("nofix.gpx")
    try gpx.write(to: file, atomically: true, encoding: .utf8)
    let result = try Self.importing(file, into: daemon)
    let tally = try #require(result["import"] as? [String: Any])
    // The first point shows the logger gives no error estimate; five had no fix.
    #expect(tally["rejected"] as? [String: Int] == ["no_accuracy_estimate": 1, "no_fix": 5])
    #expect(tally["kept"] as? Int == 34)
    #expect(tally["accuracy_assumed"] as? Int == 34)
    #expect((result["summary"] as? String)?.hasSuffix("· partial route · accuracy assumed") == true)
  }
}
