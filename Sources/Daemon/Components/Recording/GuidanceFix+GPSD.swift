import DashPilotCore
import GPSD
import Guidance

extension GuidanceFix {
  /// The fix guidance is fed: every TPV with a position and a time, whatever the filter
  /// thinks of it. A fix with no error estimate gets an infinite accuracy, which the
  /// engine's first gate refuses to match, rather than a made-up number.
  init?(_ tpv: GPSDTPV) {
    guard tpv.hasPosition, let time = tpv.time, let latitude = tpv.latitude, let longitude = tpv.longitude
    else { return nil }
    self.init(
      timestamp: time, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude),
      accuracy: tpv.candidate(age: nil).horizontalAccuracy ?? .infinity, speed: tpv.speed, course: tpv.track)
  }
}
