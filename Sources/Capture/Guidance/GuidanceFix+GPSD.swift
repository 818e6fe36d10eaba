import DashPilotCore
import FoundationEssentials
import GPSD
import Guidance

extension GuidanceFix {
  /// The fix guidance is given for a TPV with a position and a time, whatever the filter
  /// thinks of it (the daemon and replay both feed the engine this); nil otherwise (the
  /// engine judges where the car is at a moment, so a fix without either says nothing).
  ///
  /// Accuracy is the same radius `RouteSampleFilter` judges (`FixCandidate.horizontalAccuracy`:
  /// `eph`, else the per-axis errors combined). A TPV with no error estimate at all gets an
  /// infinite accuracy: the engine's first gate then treats it as no evidence either way,
  /// neither a miss nor a return, though its speed still feeds the smoothed speed.
  public init?(_ tpv: GPSDTPV) {
    guard tpv.hasPosition, let time = tpv.time, let latitude = tpv.latitude, let longitude = tpv.longitude else {
      return nil
    }
    let accuracy = tpv.candidate(age: nil).horizontalAccuracy ?? .infinity
    self.init(
      timestamp: time, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude),
      accuracy: accuracy, speed: tpv.speed, course: tpv.track)
  }
}
