import DashPilotCore
import Foundation
import Store

/// What no stored shift may ever hold, whatever came in: a sample off the Earth, without a
/// finite time, with an error estimate worse than capture's limit, or not strictly later
/// than the one before it. Returns one sentence per broken row (empty when all is well).
enum StoredShiftInvariants {
  static let maximumAccuracy = RouteSampleFilter.Configuration().maximumHorizontalAccuracy

  static func violations(in samples: [RouteSample]) -> [String] {
    var problems: [String] = []
    var previous: Date?
    for (index, sample) in samples.enumerated() {
      let seconds = sample.timestamp.timeIntervalSince1970
      if !seconds.isFinite { problems.append("row \(index): time \(seconds) is not finite") }
      if !sample.coordinate.isValid {
        problems.append("row \(index): \(sample.coordinate.latitude), \(sample.coordinate.longitude) is not on Earth")
      }
      let accuracy = sample.horizontalAccuracy
      if !(accuracy.isFinite && accuracy >= 0 && accuracy <= maximumAccuracy) {
        problems.append("row \(index): accuracy \(accuracy) m is outside 0...\(maximumAccuracy)")
      }
      if let speed = sample.speed, !(speed.isFinite && speed >= 0) {
        problems.append("row \(index): speed \(speed) is not a speed")
      }
      if let course = sample.course, !(course.isFinite && course >= 0 && course < 360) {
        problems.append("row \(index): course \(course) is not a bearing")
      }
      if let previous, sample.timestamp <= previous {
        problems.append("row \(index): time \(sample.timestamp) does not follow \(previous)")
      }
      previous = sample.timestamp
    }
    return problems
  }

  /// Every shift in the store at `path`, checked, plus the file's integrity.
  static func check(storeAt path: String) throws -> (samples: [[RouteSample]], problems: [String]) {
    let store = try SampleStore(path: path)
    var problems: [String] = []
    let integrity = try store.integrityCheck()
    if integrity != ["ok"] { problems.append("integrity_check: \(integrity)") }
    var all: [[RouteSample]] = []
    for shift in try store.shifts() {
      let samples = try store.samples(ofShift: shift.id)
      all.append(samples)
      problems += violations(in: samples).map { "shift \(shift.id) \($0)" }
    }
    return (all, problems)
  }
}
