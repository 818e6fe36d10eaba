import DashPilotCore
import Foundation

/// The route the store's crash test writes from a child process and checks afterwards: the
/// sample at index k is fully determined by k, so the parent knows what every committed row
/// must hold without being told.
public enum StoreIngestPattern {
  public static let firstFixTime: TimeInterval = 1_700_000_000

  /// Sample k: one second and about a metre and a bit after sample k - 1.
  public static func sample(_ k: Int, session: CaptureSessionID) -> RouteSample {
    RouteSample(
      timestamp: Date(timeIntervalSince1970: firstFixTime + Double(k)),
      coordinate: GeoCoordinate(latitude: 10 + Double(k) * 1e-5, longitude: 20 - Double(k % 1000) * 1e-5),
      horizontalAccuracy: Double(k % 50) + 0.25, speed: Double(k % 30), course: Double(k % 360),
      captureSessionID: session)
  }

  /// Whether `stored` is what sample k was, to the store's precision.
  public static func matches(_ stored: RouteSample, _ k: Int) -> Bool {
    let expected = sample(k, session: stored.captureSessionID ?? CaptureSessionID(""))
    return stored.timestamp == expected.timestamp
      && abs(stored.coordinate.latitude - expected.coordinate.latitude) < 1e-9
      && abs(stored.coordinate.longitude - expected.coordinate.longitude) < 1e-9
      && stored.horizontalAccuracy == expected.horizontalAccuracy
      && stored.speed == expected.speed && stored.course == expected.course
  }
}
