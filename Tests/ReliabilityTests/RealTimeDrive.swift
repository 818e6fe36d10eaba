import Foundation
import TestSupport

/// A motorway drive due north at 32 m/s (115 km/h), five fixes a second, as the NMEA burst
/// a receiver writes each cycle (RMC, GGA, GSA, GST). Cycle c is fully determined by c: its
/// fix time is 2024-05-01T10:00:00Z + c / 5 s, so a test that knows which cycle went to gpsd
/// last knows the newest fix the daemon could have had. The first `leadIn` cycles carry no
/// fix (a receiver still searching), so gpsd has found the receiver's packet type and cycle
/// end before the first real fix, and every fix after that reaches every client alike.
///
/// 6.4 m a fix is above the sample filter's 5 m minimum movement: every fix is kept, one
/// row per cycle, so stored rows map one to one onto cycles.
struct RealTimeDrive: Sendable {
  static let cyclesPerSecond = 5
  static let period = 1.0 / Double(cyclesPerSecond)
  static let metresPerCycle = 6.4
  /// 2024-05-01T10:00:00Z.
  static let firstCycleTimeMilliseconds: Int64 = 1_714_557_600_000
  /// Cycles that fit before the latitude's minutes would pass 60 (about 29 minutes).
  static let maximumCycles = Int(29.0 * 1852.0 / metresPerCycle)

  var leadIn = 10
  /// Cycles after the lead-in with the car standing where it starts (speed 0), before it
  /// drives off: where a hands-free shift's movement is measured from.
  var standingCycles = 0
  /// Hours added to every fix time: the same drive, taken that much later (a box switched
  /// off for that long).
  var hoursLater = 0

  /// Cycle c's fix time, milliseconds since 1970 (whole: 200 ms steps).
  static func fixTimeMilliseconds(cycle: Int) -> Int64 {
    firstCycleTimeMilliseconds + Int64(cycle) * Int64(1000 / cyclesPerSecond)
  }

  /// Cycle c's latitude: minutes past 51° N.
  static func latitudeMinutes(cycle: Int) -> Double { 30.0 + Double(cycle) * metresPerCycle / 1852.0 }

  func isFix(cycle: Int) -> Bool { cycle >= leadIn }

  /// Cycle c's fix time with this drive's hours added, milliseconds since 1970.
  func fixTime(cycle: Int) -> Int64 { Self.fixTimeMilliseconds(cycle: cycle) + Int64(hoursLater) * 3_600_000 }

  /// The cycles the car has driven by cycle c (none while it stands).
  func drivenCycles(_ cycle: Int) -> Int { max(0, cycle - leadIn - standingCycles) }

  /// The lines of cycle c, each ended with CR LF, as one burst.
  func nmea(cycle: Int) -> String {
    let centiseconds = (10 + hoursLater) * 360_000 + cycle * (100 / Self.cyclesPerSecond)
    let time = String(
      format: "%02d%02d%02d.%02d", centiseconds / 360_000, (centiseconds / 6000) % 60, (centiseconds / 100) % 60,
      centiseconds % 100)
    let lines: [String]
    if isFix(cycle: cycle) {
      let latitude = String(format: "51%08.5f", Self.latitudeMinutes(cycle: drivenCycles(cycle) + leadIn))
      let longitude = "00007.20000"
      let knots = drivenCycles(cycle) > 0 || standingCycles == 0 ? "62.20" : "0.00"
      lines = [
        "GPRMC,\(time),A,\(latitude),N,\(longitude),W,\(knots),0.0,010524,,,A",
        "GPGGA,\(time),\(latitude),N,\(longitude),W,1,09,0.9,35.0,M,47.0,M,,",
        "GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1",
        "GPGST,\(time),2.7,2.7,2.7,0.0,2.7,2.7,4.0",
      ]
    } else {
      lines = [
        "GPRMC,\(time),V,,,,,,,010524,,,N",
        "GPGGA,\(time),,,,,0,00,99.99,,,,,,",
        "GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99",
        "GPGST,\(time),,,,,,,",
      ]
    }
    return lines.map { DaemonSteadyDrive.sentence($0) + "\r\n" }.joined()
  }
}
