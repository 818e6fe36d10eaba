import DashPilotCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The endless 10 Hz drive the reliability tests stream as gpsd JSON: fix k is fully
/// determined by k (due east at 12 m/s along a parallel, a tenth of a second apart), so a
/// test knows what every stored row must hold without being told, and a restarted child
/// can pick the stream up where the wall clock says it has got to.
public enum ReliabilityDrive {
  public static let firstFixTime: TimeInterval = 1_717_228_800  // 2024-06-01T08:00:00Z
  public static let interval: TimeInterval = 0.1
  public static let speed = 12.0
  public static let start = GeoCoordinate(latitude: 52.0, longitude: 5.0)
  public static let device = "/dev/ttyACM0"

  /// Metres per degree of longitude on the drive's parallel (spherical Earth).
  static var metresPerDegreeOfLongitude: Double {
    GeographicDistance.metres(from: start, to: GeoCoordinate(latitude: start.latitude, longitude: start.longitude + 1))
  }

  public static func time(_ k: Int) -> Date { Date(timeIntervalSince1970: firstFixTime + Double(k) * interval) }

  public static func coordinate(_ k: Int) -> GeoCoordinate {
    GeoCoordinate(
      latitude: start.latitude,
      longitude: start.longitude + Double(k) * interval * speed / metresPerDegreeOfLongitude)
  }

  /// The fix index whose time is `date`, if it is one (to the millisecond).
  public static func index(of date: Date) -> Int? {
    let k = ((date.timeIntervalSince1970 - firstFixTime) / interval).rounded()
    guard k.isFinite, k >= 0, k < 1e9, abs(time(Int(k)).timeIntervalSince(date)) < 0.0005 else { return nil }
    return Int(k)
  }

  public static let versionLine =
    #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#

  public static var deviceLine: String {
    #"{"class":"DEVICE","path":"\#(device)","activated":"2024-06-01T07:59:59.000Z","native":0,"bps":9600}"#
  }

  /// Fix k as gpsd writes a TPV.
  public static func tpvLine(_ k: Int) -> String {
    let position = coordinate(k)
    return
      #"{"class":"TPV","device":"\#(device)","mode":3,"time":"\#(GPSDTimeText.iso(time(k).timeIntervalSince1970))","ept":0.005,"lat":\#(position.latitude),"lon":\#(position.longitude),"altHAE":12.0,"track":90.0,"speed":\#(speed),"eph":4.5,"epx":3.0,"epy":3.2}"#
  }
}

/// gpsd's ISO-8601 UTC instants with milliseconds, without Foundation's formatters.
public enum GPSDTimeText {
  public static func iso(_ seconds: Double) -> String {
    let totalMillis = Int64((seconds * 1000).rounded())
    var t = time_t(totalMillis.quotientAndRemainder(dividingBy: 1000).quotient)
    let millis = Int(totalMillis - Int64(t) * 1000)
    var parts = tm()
    gmtime_r(&t, &parts)
    func pad(_ n: Int, _ width: Int) -> String {
      let text = String(n)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
      + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
  }
}
