import Foundation

/// The reliability drive as the NMEA a 10 Hz receiver writes (RMC, GGA, GSA, GST per fix,
/// the set the drive fixtures use), so a real gpsd can be fed the same fixes the capture
/// benchmarks feed as JSON. Fix k has the same time and position as `tpvLine(k)`.
extension ReliabilityDrive {
  public static func nmeaSentences(_ k: Int) -> [String] {
    var seconds = time(k).timeIntervalSince1970
    seconds = (seconds * 100).rounded() / 100
    let whole = Int(seconds)
    let secondOfDay = whole % 86_400
    let hundredths = Int(((seconds - Double(whole)) * 100).rounded())
    let clock = String(
      format: "%02d%02d%02d.%02d", secondOfDay / 3600, (secondOfDay / 60) % 60, secondOfDay % 60, hundredths)
    var civil = tm()
    var t = time_t(whole)
    gmtime_r(&t, &civil)
    let date = String(format: "%02d%02d%02d", civil.tm_mday, civil.tm_mon + 1, civil.tm_year % 100)
    let position = coordinate(k)
    let latitude = angle(position.latitude, degreeDigits: 2)
    let longitude = angle(position.longitude, degreeDigits: 3)
    let knots = String(format: "%.2f", speed * 3600 / 1852)
    return [
      DaemonSteadyDrive.sentence("GPRMC,\(clock),A,\(latitude),N,\(longitude),E,\(knots),90.0,\(date),,,A"),
      DaemonSteadyDrive.sentence("GPGGA,\(clock),\(latitude),N,\(longitude),E,1,09,0.9,12.0,M,47.0,M,,"),
      DaemonSteadyDrive.sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1"),
      DaemonSteadyDrive.sentence("GPGST,\(clock),2.7,2.7,2.7,0.0,2.7,2.7,4.0"),
    ]
  }

  /// `ddmm.mmmmmm` (or `dddmm.mmmmmm`): six decimals of minutes keep the drive's 1.2 m
  /// steps to a few millimetres.
  static func angle(_ degrees: Double, degreeDigits: Int) -> String {
    let whole = Int(degrees)
    let minutes = (degrees - Double(whole)) * 60
    return String(format: "%0\(degreeDigits)d%09.6f", whole, minutes)
  }
}
