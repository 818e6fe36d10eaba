import Capture
import DashPilotCore
import Foundation

/// One generated shift: its window, how it ended, and its capture sessions with the rows
/// capture kept in each.
struct GeneratedShift {
  struct Session {
    var id: CaptureSessionID
    var start: Date
    var end: Date
    var endReason: SessionEndReason
    var samples: [RouteSample]
  }

  var start: Date
  var end: Date
  var endedBy: ShiftEndCause
  var sessions: [Session]

  var sampleCount: Int { sessions.reduce(0) { $0 + $1.samples.count } }
}

/// Drives `VehicleModel` through one shift and keeps what capture would keep: every fix
/// while the van moves (`rate` a second), a held sample about once a minute while it stands
/// (capture's `heldSampleInterval`), nothing in a capture gap, which ends the session with
/// a reason (gpsd's connection lost, the receiver unplugged, a new gpsd) and is followed by
/// a new session. The shift starts with the first move (its first fix) and ends by hand or
/// after its last stop; its last session ends with it.
enum ShiftSimulation {
  static let receiverPath = "/dev/ttyACM0"
  static let heldSampleInterval = RouteSampleFilterConfiguration().heldSampleInterval

  static func shift(day: Date, depot: GeoCoordinate, parameters: HistoryParameters) -> GeneratedShift {
    let dayNumber = UInt64(max(0, (day.timeIntervalSince1970 / 86_400).rounded(.down)))
    var random = HistoryRandom(seed: parameters.seed, stream: dayNumber)
    let shiftSeconds = parameters.hours * 3_600
    let startMilliseconds = Int64((day.timeIntervalSince1970 + random.uniform(25_200...28_200)).rounded()) * 1_000
    let ticks = Int((shiftSeconds * parameters.rate).rounded())
    let millisecondsPerTick = 1_000 / parameters.rate
    let gaps = plannedGaps(ticks: ticks, rate: parameters.rate, random: &random)
    var van = VehicleModel(depot: depot, shiftSeconds: shiftSeconds, random: &random)
    var receiver = ReceiverModel(random: &random)

    var sessions: [GeneratedShift.Session] = []
    var open: GeneratedShift.Session?
    var lastKept: Int64 = .min
    var gapIndex = 0
    for tick in 0..<ticks {
      if tick > 0 { van.advance(1 / parameters.rate, random: &random) }
      let milliseconds = startMilliseconds + Int64((Double(tick) * millisecondsPerTick).rounded())
      let time = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
      while gapIndex < gaps.count && tick >= gaps[gapIndex].ticks.upperBound { gapIndex += 1 }
      if gapIndex < gaps.count && gaps[gapIndex].ticks.contains(tick) {
        if var ending = open {
          ending.end = time
          ending.endReason = gaps[gapIndex].reason
          sessions.append(ending)
          open = nil
        }
        continue
      }
      let held = !van.isMoving
      // The shift begins with the first move; then a held sample a minute while standing,
      // and at once when a new session begins.
      if held && (lastKept == .min || open != nil && Double(milliseconds - lastKept) < heldSampleInterval * 1_000) {
        continue
      }
      var session =
        open
        ?? GeneratedShift.Session(
          id: random.sessionID(), start: time, end: time, endReason: .captureStopped("shift ended"), samples: [])
      if open == nil { session.samples.reserveCapacity(ticks - tick) }
      open = nil  // the array is appended to in place, not copied
      session.samples.append(
        held
          ? receiver.heldFix(of: van, at: time, session: session.id, random: &random)
          : receiver.movingFix(of: van, at: time, session: session.id, random: &random))
      open = session
      lastKept = milliseconds
    }

    let nominalEnd = Date(timeIntervalSince1970: Double(startMilliseconds) / 1_000 + shiftSeconds)
    // By hand at the end of the day, or (the shipped hands-free policy) after the last stop,
    // at the last fix kept.
    let endedBy: ShiftEndCause = random.chance(0.7) ? .stopped : .manual
    let lastFix = (open?.samples.last ?? sessions.last?.samples.last)?.timestamp ?? nominalEnd
    let end = endedBy == .stopped ? max(lastFix, sessions.last?.end ?? lastFix) : nominalEnd
    if var ending = open {
      ending.end = end
      sessions.append(ending)
    }
    let start = sessions.first?.samples.first?.timestamp ?? nominalEnd
    return GeneratedShift(start: start, end: max(start, end), endedBy: endedBy, sessions: sessions)
  }

  struct Gap {
    var ticks: Range<Int>
    var reason: SessionEndReason
  }

  /// Two shifts in three have no gap; the rest one or two, of 20 s to 10 min.
  static func plannedGaps(ticks: Int, rate: Double, random: inout HistoryRandom) -> [Gap] {
    let roll = random.unit()
    let count = roll < 0.66 ? 0 : roll < 0.93 ? 1 : 2
    var gaps: [Gap] = []
    for _ in 0..<count {
      let start = Int(Double(ticks) * random.uniform(0.1...0.9))
      let length = Int(random.uniform(20...600) * rate)
      let cause = random.unit()
      let reason: SessionEndReason =
        cause < 0.4
        ? .connectionLost("gpsd closed the connection")
        : cause < 0.8 ? .deviceDeactivated(path: receiverPath) : .newGPSD(release: "3.22")
      let candidate = Gap(ticks: start..<min(ticks, start + length), reason: reason)
      if !gaps.contains(where: { $0.ticks.overlaps(candidate.ticks) }) { gaps.append(candidate) }
    }
    return gaps.sorted { $0.ticks.lowerBound < $1.ticks.lowerBound }
  }
}
