import DashPilotCore
import FoundationEssentials
import GPSD

/// The distance a gpsd log's own reported speeds add up to: each instant's speed (its last
/// report's, as capture reads it), integrated by trapezoids between consecutive instants
/// with a position, across no step longer than `maximumStep` (a stretch without fixes
/// says nothing about the speed in it). Not a figure the product reports: the cross-check
/// the truth benchmarks and tests hold the recorded figure against on logs whose true
/// length nobody measured.
public struct ReceiverSpeedIntegral: Sendable {
  public var maximumStep: TimeInterval

  public init(maximumStep: TimeInterval = RouteMileageCalculator.defaultMaximumSampleInterval) {
    self.maximumStep = maximumStep
  }

  public func metres(of data: Data) -> Double {
    var instants: [(time: Date, speed: Double?)] = []
    var lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).makeIterator()
    while let line = lines.next() {
      guard case .tpv(let tpv)? = GPSDJSONDecoder.decode(line), tpv.hasPosition, let time = tpv.time else {
        continue
      }
      if let last = instants.last, last.time == time {
        instants[instants.count - 1].speed = tpv.speed ?? last.speed
      } else if instants.last.map({ time > $0.time }) ?? true {
        instants.append((time, tpv.speed))
      }
    }
    var metres = 0.0
    for (a, b) in zip(instants, instants.dropFirst()) {
      let step = b.time.timeIntervalSince(a.time)
      guard step <= maximumStep, let before = a.speed, let after = b.speed else { continue }
      metres += step * (before + after) / 2
    }
    return metres
  }
}
