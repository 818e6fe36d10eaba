import Foundation

/// A steady drive due north at 10 m/s, one fix a second from 2024-05-01 10:00:00Z, as the
/// NMEA a receiver writes (RMC, GGA, GSA, GST, the same set as the drive fixtures). It has
/// no stops, tunnels or unplugs, so every stretch of feeding stores rows: the daemon fault
/// tests can wait for "rows grew" without a parked stop stalling them.
public enum DaemonSteadyDrive {
  public static func nmea(fixes: Int) -> String {
    var lines: [String] = []
    lines.reserveCapacity(fixes * 4)
    for k in 0..<fixes {
      let seconds = 10 * 3600 + k
      let time = String(format: "%02d%02d%02d.00", seconds / 3600, (seconds / 60) % 60, seconds % 60)
      // 10 m north per second: 10 / 1852 nautical miles, i.e. minutes of latitude.
      let minutes = 30.0 + Double(k) * 10.0 / 1852.0
      let latitude = String(format: "51%08.5f", minutes)
      let longitude = "00007.20000"
      lines.append(sentence("GPRMC,\(time),A,\(latitude),N,\(longitude),W,19.44,0.0,010524,,,A"))
      lines.append(sentence("GPGGA,\(time),\(latitude),N,\(longitude),W,1,09,0.9,35.0,M,47.0,M,,"))
      lines.append(sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1"))
      lines.append(sentence("GPGST,\(time),2.7,2.7,2.7,0.0,2.7,2.7,4.0"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `$BODY*CS` with NMEA's XOR checksum.
  public static func sentence(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$\(body)*\(String(format: "%02X", checksum))"
  }

  /// Writes the drive to `directory` and returns its file.
  public static func write(fixes: Int, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("steady-drive.nmea")
    try nmea(fixes: fixes).write(to: url, atomically: true, encoding: .utf8)
    return url
  }
}
