// The receivers the real-time benchmarks feed a real gpsd with, as the NMEA a receiver
// writes (RMC, GGA, GSA, GST per fix, the set the drive fixtures use): driving due east
// at 12 m/s at 10 Hz or 1 Hz, and a parked car whose receiver wanders by a metre or two.
import DashPilotCore
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

enum BenchDrive {
  static let firstFixTime: TimeInterval = 1_717_228_800  // 2024-06-01T08:00:00Z
  static let start = GeoCoordinate(latitude: 52.0, longitude: 5.0)
  static let speed = 12.0

  /// Fix k of a drive at `hertz` fixes a second, due east at 12 m/s.
  static func driving(_ k: Int, hertz: Int) -> String {
    let seconds = Double(k) / Double(hertz)
    let position = GeographicDistance.destination(from: start, bearing: 90, distance: seconds * speed)
    return sentences(at: firstFixTime + seconds, position, knots: speed * 3600 / 1852, course: 90)
  }

  /// Fix k of a parked receiver at 1 Hz: speed 0, the position wandering within about two
  /// metres of where it stands (a slow, deterministic walk, as a still receiver's does).
  static func parked(_ k: Int) -> String {
    let t = Double(k)
    let north = 1.2 * sin(t / 37) + 0.4 * sin(t / 5.3)
    let east = 1.2 * cos(t / 41) + 0.4 * sin(t / 7.1)
    let position = GeographicDistance.destination(
      from: GeographicDistance.destination(from: start, bearing: 0, distance: north), bearing: 90, distance: east)
    return sentences(at: firstFixTime + t, position, knots: 0, course: nil)
  }

  /// The four sentences of one fix, each ended by CR LF.
  static func sentences(at time: TimeInterval, _ position: GeoCoordinate, knots: Double, course: Double?) -> String {
    let centiseconds = Int64((time * 100).rounded())
    let whole = centiseconds / 100
    let secondOfDay = Int(whole % 86_400)
    let clock = String(
      format: "%02d%02d%02d.%02d", secondOfDay / 3600, (secondOfDay / 60) % 60, secondOfDay % 60,
      Int(centiseconds % 100))
    var civil = tm()
    var t = time_t(whole)
    gmtime_r(&t, &civil)
    let date = String(format: "%02d%02d%02d", civil.tm_mday, civil.tm_mon + 1, civil.tm_year % 100)
    let latitude = angle(position.latitude, degreeDigits: 2)
    let longitude = angle(position.longitude, degreeDigits: 3)
    let speed = String(format: "%.2f", knots)
    let track = course.map { String(format: "%.1f", $0) } ?? ""
    return [
      "GPRMC,\(clock),A,\(latitude),N,\(longitude),E,\(speed),\(track),\(date),,,A",
      "GPGGA,\(clock),\(latitude),N,\(longitude),E,1,09,0.9,12.0,M,47.0,M,,",
      "GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1",
      "GPGST,\(clock),2.7,2.7,2.7,0.0,2.7,2.7,4.0",
    ].map { DaemonSteadyDrive.sentence($0) + "\r\n" }.joined()
  }

  /// `ddmm.mmmmmm` (or `dddmm.mmmmmm`) for a position north and east of 0, 0.
  static func angle(_ degrees: Double, degreeDigits: Int) -> String {
    let whole = Int(degrees)
    return String(format: "%0\(degreeDigits)d%09.6f", whole, (degrees - Double(whole)) * 60)
  }

  /// The start of the TPV gpsd writes for the fix at `time` (`"time":"...`, to the
  /// centisecond gpsd keeps from NMEA), to see that a client has had the last fix.
  static func tpvTimeMark(_ time: TimeInterval) -> String {
    "\"time\":\"\(GPSDTimeText.iso((time * 100).rounded() / 100).dropLast(2))"
  }

  /// Writes `fixes` fixes of `fix` to `receiver`, one every `1 / hertz` seconds of
  /// monotonic time from now, and returns the seconds the feed took.
  static func feed(_ receiver: GPSDFullSpeedReceiver, fixes: Int, hertz: Int, _ fix: (Int) -> String) throws -> Double {
    let start = ProcessFigures.now()
    for k in 0..<fixes {
      try receiver.write(fix(k))
      ProcessFigures.sleep(until: start + Double(k + 1) / Double(hertz))
    }
    return ProcessFigures.now() - start
  }
}
