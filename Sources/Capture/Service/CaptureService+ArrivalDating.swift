import DashPilotCore
import FoundationEssentials
import PlatformSupport

/// The wall clock at one report's arrival, from the clocks as the caller read them beside
/// the monotonic clock that stamped the report (`ClockReading`: the daemon's reading for the
/// turn that read gpsd, or in replay the timestamp `gpspipe -u` wrote before a line). It
/// dates a fix that came with no date (`ArrivalDating`); whether it may is `[Capture]
/// DateByArrival=`.
struct ArrivalWall: Sendable, Hashable {
  var time: Date
  var isSynchronised: Bool

  init(clock: ClockReading, arrival: Double) {
    // The report arrived `monotonic - arrival` seconds before the clocks were read.
    let back = arrival.isFinite ? clock.monotonic - arrival : 0
    time = clock.wall.addingTimeInterval(-back)
    isSynchronised = clock.isWallClockSynchronised
  }
}

extension CaptureService {
  /// `ArrivalDating`'s decision for `candidate`, in the current session.
  func dateByArrival(_ candidate: FixCandidate, at reading: ArrivalWall?) -> ArrivalDating.Decision {
    filter.configuration.dateByArrival.decide(
      candidate, arrival: reading?.time, isClockSynchronised: reading?.isSynchronised ?? false,
      receiverDatesFixes: session != nil && receiverDatesFixes)
  }

  /// A fix without the receiver's time (or without a position): judged at once, dated by
  /// its arrival when `ArrivalDating` allows, else refused with the reason it gives. Not
  /// gathered as an instant: with no time there is nothing to tell its reports apart by,
  /// and the reports of one cycle that follow it repeat its position (no movement).
  mutating func judgeUndated(
    _ candidate: FixCandidate, at reading: ArrivalWall?, into events: inout [CaptureEvent]
  ) {
    switch dateByArrival(candidate, at: reading) {
    case .judge(let judged):
      if judged.isDatedByArrival, judged.mode.hasFix { lastFixTime = judged.time }
      judge(judged, into: &events)
    case .refuse(let reason):
      statistics.received += 1
      statistics.undated += 1
      statistics.rejected[reason, default: 0] += 1
      events.append(.rejected(reason))
    }
  }
}

extension ArrivalDating.Decision {
  /// The time the fix was given, when it was dated by arrival.
  var datedTime: Date? {
    if case .judge(let candidate) = self, candidate.isDatedByArrival { return candidate.time }
    return nil
  }
}
