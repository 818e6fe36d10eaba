// Truth on real receivers (issue 13): what capture records on recordings no one here made,
// against what is true of each (../shared/real-logs/README.md, gpsd's own notes) or the
// generated truth (Fixtures/truth, Fixtures/drives).
import Capture
import DashPilotCore
import Foundation
import TestSupport

/// gpsd regression logs whose receiver moved (by their own notes); every other log with a
/// fix stood still. The same list as StationaryHoldTests.
private let movingGPSDLogs: Set<String> = [
  "bundg_zeus_9", "bt451", "humminbird-M37", "nl2008u", "quectel-eg25-g", "garmin-10x",
]

/// Moving logs left out of the speed cross-check, and why.
private let notSpeedChecked: [String: String] = [
  "bundg_zeus_9":
    "gpsd's reports carry speeds it computed from sentences whose times disagree (0-0.3 m/s while sailing at 3)",
  "bt451": "three recordings whose clock goes back 52 minutes: its car fixes precede its parked ones",
  "garmin-10x": "a laptop receiver carried from a window into a case: its movement is position noise",
]

private let staticRealLogs = [
  "marineapi_garmin15h_coldstart_static", "marineapi_garmin15_ggaonly_static", "signalk_amsterdam_static",
  "rosdrivers_navsat_rtkfixed_static",
]
private let movingRealLogs = ["dotmorten_garmin_car_reno_tahoe"]

func runTruthBenchmarks(_ report: inout BenchReport) {
  let gpsdLogs = SharedLogs.gpsdLogs
  let realLogs = SharedLogs.realLogs
  var stationary: [(String, URL)] = []
  var moving: [(String, URL)] = []
  let names = (try? FileManager.default.contentsOfDirectory(atPath: gpsdLogs.path)) ?? []
  for file in names.sorted() where file.hasSuffix(".log.chk") {
    let name = String(file.dropLast(".log.chk".count))
    let url = gpsdLogs.appendingPathComponent(file)
    if movingGPSDLogs.contains(name) {
      if notSpeedChecked[name] == nil { moving.append((name, url)) }
    } else {
      stationary.append((name, url))
    }
  }
  stationary += staticRealLogs.map { ($0, realLogs.appendingPathComponent("\($0).json")) }
  moving += movingRealLogs.map { ($0, realLogs.appendingPathComponent("\($0).json")) }
  stationary += parkedTruthCases()

  var worstStationary = (name: "", metres: 0.0)
  var counted = 0
  for (name, url) in stationary {
    guard let result = try? GPSDLogReplay.replay(contentsOf: url) else { continue }
    // Only logs with a position in them: gpsd's suite also holds AIS and no-fix captures.
    let positioned = result.statistics.received - (result.statistics.rejected[.noFix] ?? 0)
    guard positioned > 0 else { continue }
    counted += 1
    if result.distance.metres >= worstStationary.metres { worstStationary = (name, result.distance.metres) }
  }
  report.record("truth.stationary_worst_m", (worstStationary.metres * 10).rounded() / 10, "m")
  print("  (\(counted) stationary logs with a position; worst \(worstStationary.name))")

  var worstKept = (name: "", ratio: Double.infinity)
  for (name, url) in moving {
    guard let data = try? Data(contentsOf: url), let result = try? GPSDLogReplay.replay(contentsOf: url) else {
      continue
    }
    let speeds = ReceiverSpeedIntegral().metres(of: data)
    guard speeds > 0 else { continue }
    let ratio = result.distance.metres / speeds
    print(String(format: "  %@: recorded %.1f m, speeds %.1f m", name, result.distance.metres, speeds))
    if ratio < worstKept.ratio { worstKept = (name, ratio) }
  }
  report.record("truth.moving_kept_worst_ratio", (worstKept.ratio * 1000).rounded() / 1000, "ratio")
  print("  (worst \(worstKept.name); not checked: \(notSpeedChecked.keys.sorted().joined(separator: ", ")))")

  var worstOver = (name: "", ratio: 0.0)
  var worstWalk = (name: "", ratio: Double.infinity)
  for (directory, key) in [("truth", "true_metres"), ("drives", "metres")] {
    let folder = TestPaths.fixtures.appendingPathComponent(directory)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for file in files.sorted() where file.hasSuffix(".expected.json") {
      let name = String(file.dropLast(".expected.json".count))
      guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let truth = (object[key] as? NSNumber)?.doubleValue, truth > 0,
        // A receiver with no date is replayed as gpspipe -w -uu recorded it (`log`).
        let result = try? GPSDLogReplay.replay(
          contentsOf: folder.appendingPathComponent(object["log"] as? String ?? "\(name).json"))
      else { continue }
      let ratio = result.distance.metres / truth
      print(String(format: "  %@: recorded %.1f m of %.1f m", name, result.distance.metres, truth))
      if ratio > worstOver.ratio { worstOver = (name, ratio) }
      if object["walking"] as? Bool == true, ratio < worstWalk.ratio { worstWalk = (name, ratio) }
    }
  }
  report.record("truth.over_truth_worst_ratio", (worstOver.ratio * 10000).rounded() / 10000, "ratio")
  print("  (worst \(worstOver.name))")
  // A floor that keeps too little is wrong too: the walks (issue 28) keep most of their length.
  report.record("truth.walk_kept_worst_ratio", (worstWalk.ratio * 1000).rounded() / 1000, "ratio")
  print("  (worst walk \(worstWalk.name))")
  runWalkSeedBenchmarks(&report)
}

/// The walk generators on other seeds (`WalkSeeds`, made on first use): how many record over
/// their path, and the most and least of it any records.
private func runWalkSeedBenchmarks(_ report: inout BenchReport) {
  do {
    let walks = try WalkSeeds.walks()
    var over = 0
    var most = (name: "", ratio: 0.0)
    var least = (name: "", ratio: Double.infinity)
    for walk in walks {
      let metres = try GPSDLogReplay.replay(contentsOf: walk.log).distance.metres
      let ratio = metres / walk.trueMetres
      print(String(format: "  %@: recorded %.1f m of %.1f m (%.3f)", walk.name, metres, walk.trueMetres, ratio))
      if ratio > 1 { over += 1 }
      if ratio > most.ratio { most = (walk.name, ratio) }
      if ratio < least.ratio { least = (walk.name, ratio) }
    }
    report.record("truth.walk_seeds_over", Double(over), "walks")
    report.record("truth.walk_seeds_most_ratio", (most.ratio * 10000).rounded() / 10000, "ratio")
    report.record("truth.walk_seeds_least_ratio", (least.ratio * 1000).rounded() / 1000, "ratio")
    print("  (\(walks.count) walks on other seeds; most \(most.name), least \(least.name))")
  } catch {
    FileHandle.standardError.write(Data("truth benchmarks on the walk seeds skipped: \(error)\n".utf8))
  }
}

/// The generated cases whose receiver never moved (`true_metres` 0: a u-blox cold-starting
/// while parked, issue 40), judged with the stationary logs.
private func parkedTruthCases() -> [(String, URL)] {
  let folder = TestPaths.fixtures.appendingPathComponent("truth")
  let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  return files.sorted().compactMap { file in
    guard file.hasSuffix(".expected.json"),
      let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      (object["true_metres"] as? NSNumber)?.doubleValue == 0
    else { return nil }
    let name = String(file.dropLast(".expected.json".count))
    return (name, folder.appendingPathComponent("\(name).json"))
  }
}
