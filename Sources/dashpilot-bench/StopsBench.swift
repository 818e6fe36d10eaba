// Stops (issue 27): the stops found on the generated delivery day (40 known stops, through a
// real gpsd: scripts/fixtures/generate_stops_day.py), measured as the daemon records them:
// the gpsd JSON replayed through CaptureService, then the stop policy on the kept and held
// rows. Then the real recordings of ../shared/real-logs: a parked receiver is one stop, and a
// car drive's stops are listed.
import Capture
import DashPilotCore
import Foundation
import TestSupport

/// Real recordings of a parked receiver (../shared/real-logs/README.md): each is one stop
/// when it is longer than the minimum.
private let parkedRealLogs = [
  "marineapi_garmin15h_coldstart_static", "marineapi_garmin15_ggaonly_static", "signalk_amsterdam_static",
  "rosdrivers_navsat_rtkfixed_static",
]
private let drivenRealLogs = ["dotmorten_garmin_car_reno_tahoe"]

func runStopsBenchmarks(_ report: inout BenchReport) {
  let policy = StopPolicy()
  do {
    let directory = try StopsDay.directory()
    let result = try GPSDLogReplay.replay(
      contentsOf: directory.appendingPathComponent("\(StopsDay.name).json"), options: .init(stops: policy))
    let truth = try StopsDay.truth(in: directory)
    let gaps = policy.calculator.measure(result.samples).gaps
    let score = StopsDay.score(found: result.stops ?? [], gaps: gaps, truth: truth.stops)
    report.record("stops.found", Double(score.found), "stops")
    report.record("stops.expected", Double(score.expected), "stops")
    report.record("stops.invented", Double(score.invented), "stops")
    report.record("stops.worst_edge_s", (score.worstEdge * 10).rounded() / 10, "s")
    print(
      "  (\(truth.stops.count) known stops, \(truth.halts.count) red lights and queues; "
        + "under a bridge without fixes, found as a capture gap and no stop: \(score.gapsAsExpected) of "
        + "\(score.gapsExpected))")
    for problem in score.problems { print("  \(problem)") }
    // What asking costs: the whole day's rows measured and read for stops, as shift show will.
    let rounds = 20
    let seconds = report.seconds {
      for _ in 0..<rounds { _ = policy.stops(in: result.samples) }
    }
    report.record("stops.policy_ms_per_day", (seconds / Double(rounds) * 10_000).rounded() / 10, "ms")
    print("  (\(result.samples.count) kept and held rows, \(result.samples.filter(\.isHeld).count) held)")
  } catch {
    FileHandle.standardError.write(Data("stops benchmarks on the delivery day skipped: \(error)\n".utf8))
  }

  var split = 0
  for name in parkedRealLogs + drivenRealLogs {
    let url = SharedLogs.realLogs.appendingPathComponent("\(name).json")
    guard let result = try? GPSDLogReplay.replay(contentsOf: url, options: .init(stops: policy)),
      let stops = result.stops, let first = result.samples.first, let last = result.samples.last
    else { continue }
    let span = last.timestamp.timeIntervalSince(first.timestamp)
    let lines = stops.map { stop in
      "\(UTCTimestamp.string(stop.arrival) ?? "?") \(CaptureGapWording.duration(stop.duration))"
        + (StopWording.cut(stop).map { " (\($0))" } ?? "")
    }
    print(
      "  \(name): \(StopWording.count(stops.count, minimumStop: policy.minimumStop)) in \(Int(span)) s: "
        + lines.joined(separator: "; "))
    if parkedRealLogs.contains(name), span >= policy.minimumStop, stops.count != 1 { split += 1 }
  }
  report.record("stops.parked_logs_not_one_stop", Double(split), "logs")
}
