import DashPilotCore
import FoundationEssentials
import GPSD

/// One instant of the receiver, gathered from gpsd's reports of it. gpsd reports a cycle
/// once per sentence (GGA, then RMC, then GSA ...), each report adding what its sentence
/// carried: the first of a cycle often has no error estimate yet, and gpsd fills in a speed
/// computed from the last two positions where the sentence had none (position noise, not
/// the receiver's Doppler speed). So capture judges an instant once, when a report of a
/// later instant (or the end of the session) shows that nothing more will come for it,
/// with every field the receiver gave: the last report's value, else an earlier one's,
/// and the speed of the last report that came with a course.
struct FixInstant: Sendable {
  private(set) var tpv: GPSDTPV
  /// The age `FixAgeEstimator` gave the latest report of the instant.
  private(set) var age: TimeInterval?
  /// When (the caller's monotonic seconds) its latest report arrived.
  private(set) var arrival: Double

  init(_ tpv: GPSDTPV, age: TimeInterval?, arrival: Double) {
    self.tpv = tpv
    self.age = age
    self.arrival = arrival
  }

  var time: Date? { tpv.time }

  /// Adds a later report of the same instant.
  mutating func merge(_ later: GPSDTPV, age: TimeInterval?, arrival: Double) {
    self.arrival = arrival
    var merged = later
    merged.eph = later.eph ?? tpv.eph
    merged.epx = later.epx ?? tpv.epx
    merged.epy = later.epy ?? tpv.epy
    merged.track = later.track ?? tpv.track
    merged.speed = later.speed ?? tpv.speed
    merged.device = later.device ?? tpv.device
    if !later.hasPosition, tpv.hasPosition {
      merged.mode = tpv.mode
      merged.latitude = tpv.latitude
      merged.longitude = tpv.longitude
    }
    tpv = merged
    self.age = age ?? self.age
  }

  var candidate: FixCandidate { tpv.candidate(age: age) }
}
