import DashPilotCore
import Guidance

/// Told of fixes by the component that reads gpsd, on the loop thread. The guidance engine
/// is fed every fix with a position (its own gates judge accuracy and wild fixes), while
/// navigation starts from the latest sample the filter accepted.
public protocol FixObserver: AnyObject {
  /// Every fix gpsd reported with a position, whether or not the filter kept it.
  func observe(fix: GuidanceFix)
  /// A fix the filter accepted for the route record.
  func observe(accepted sample: RouteSample)
}
