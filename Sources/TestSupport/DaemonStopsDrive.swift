import Foundation

/// A short delivery drive for the stop tests, as a receiver sends it: RMC, GGA, GSA and
/// GST once a second from 10:00:00 UTC on 1 May 2024, north along a meridian at 10 m/s (the receiver says 21 knots),
/// standing still (speed 0, the same position) where it stops. Its parts, in order:
/// 120 s driving, a 300 s stop, 120 s driving, a 60 s red light, 120 s driving, 180 s with
/// no sentence at all (a capture gap: no fixes), 120 s driving, and 240 s standing at the
/// end of the recording. Before it, `preamble` seconds' worth of no-fix sentences dated
/// 09:59:59: gpsd drops what arrives while it synchronises with a new device.
public enum DaemonStopsDrive {
  public enum Part: Sendable {
    case drive(seconds: Int)
    case stand(seconds: Int)
    case silence(seconds: Int)
  }

  public static let parts: [Part] = [
    .drive(seconds: 120), .stand(seconds: 300), .drive(seconds: 120), .stand(seconds: 60),
    .drive(seconds: 120), .silence(seconds: 180), .drive(seconds: 120), .stand(seconds: 240),
  ]

  /// 2024-05-01T10:00:00Z, the first fix.
  public static let start = Date(timeIntervalSince1970: 1_714_557_600)

  /// The time of the drive's second `k` (the first fix is second 0).
  public static func time(_ k: Int) -> Date { start.addingTimeInterval(Double(k)) }

  /// The last second with a fix.
  public static var lastFix: Date { lastFix(of: parts) }

  /// The last second with a fix of a drive made of `parts`.
  public static func lastFix(of parts: [Part]) -> Date {
    time(
      parts.reduce(0) { total, part in
        switch part {
        case .drive(let seconds), .stand(let seconds), .silence(let seconds): total + seconds
        }
      } - 1)
  }

  /// The drive (or another made of `parts`, driven and stood the same way: 10 m a second
  /// north from 51°30' N, 0°7.2' W, from its second fix) as NMEA.
  public static func nmea(_ parts: [Part] = parts, preamble: Int = 100) -> String {
    var lines: [String] = []
    for _ in 0..<preamble {
      lines.append(DaemonSteadyDrive.sentence("GPRMC,095959.00,V,,,,,,,010524,,,N"))
      lines.append(DaemonSteadyDrive.sentence("GPGGA,095959.00,,,,,0,00,99.9,,,,,,"))
      lines.append(DaemonSteadyDrive.sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9"))
    }
    var second = 0
    // Metres north of 51°30' N, where the drive begins.
    var north = 0.0
    for part in parts {
      switch part {
      case .drive(let seconds):
        for k in 0..<seconds {
          if k > 0 || second > 0 { north += 10 }
          lines += fix(second, north: north, knots: 21)
          second += 1
        }
      case .stand(let seconds):
        for _ in 0..<seconds {
          lines += fix(second, north: north, knots: 0)
          second += 1
        }
      case .silence(let seconds):
        // The vehicle drove on while nothing was heard: 10 m/s, as before and after.
        north += 10 * Double(seconds)
        second += seconds
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes the drive (or one made of `parts`) to `directory` and returns its file.
  public static func write(_ parts: [Part] = parts, in directory: URL, preamble: Int = 100) throws -> URL {
    let url = directory.appendingPathComponent("stops-drive.nmea")
    try nmea(parts, preamble: preamble).write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  private static func fix(_ second: Int, north: Double, knots: Double) -> [String] {
    let seconds = 10 * 3600 + second
    let time = String(format: "%02d%02d%02d.00", seconds / 3600, (seconds / 60) % 60, seconds % 60)
    // Metres north as minutes of latitude (a nautical mile is a minute).
    let latitude = String(format: "51%08.5f", 30.0 + north / 1852.0)
    let longitude = "00007.20000"
    let speed = String(format: "%.2f", knots)
    return [
      DaemonSteadyDrive.sentence("GPRMC,\(time),A,\(latitude),N,\(longitude),W,\(speed),0.0,010524,,,A"),
      DaemonSteadyDrive.sentence("GPGGA,\(time),\(latitude),N,\(longitude),W,1,09,0.9,35.0,M,47.0,M,,"),
      DaemonSteadyDrive.sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1"),
      DaemonSteadyDrive.sentence("GPGST,\(time),2.7,2.7,2.7,0.0,2.7,2.7,4.0"),
    ]
  }
}
