// Guidance benchmarks: the per-fix cost of following a route must not grow with its length.
import DashPilotCore
import Foundation
import Guidance
import TestSupport

/// Keeps the optimiser from dropping work whose result is otherwise unused.
nonisolated(unsafe) private var guidanceSink = 0

/// A winding route of `count` points 20 m apart that never crosses itself: it snakes east,
/// its heading swinging 35 degrees either side with a little seeded jitter, so every point of
/// a long route has the same few neighbours as on a short one (a city's worth of different
/// streets near each point would make joining costlier, not following).
private func windingRoute(count: Int) -> [GeoCoordinate] {
  var generator = SeededGenerator(seed: 7)
  var points = [GeoCoordinate(latitude: 51.5, longitude: -0.12)]
  points.reserveCapacity(count)
  while points.count < count {
    let swing = 35 * sin(Double(points.count) / 15)
    let bearing = 90 + swing + Double.random(in: -5...5, using: &generator)
    points.append(GeographicDistance.destination(from: points[points.count - 1], bearing: bearing, distance: 20))
  }
  return points
}

/// Fixes every 2 m along 90 segments from the middle of the route, 5 m to alternate sides,
/// 0.2 s apart (10 m/s): a car following the route, in the same shape whatever its length.
private func followingFixes(on points: [GeoCoordinate]) -> [GuidanceFix] {
  let first = max(0, points.count / 2 - 45)
  var fixes: [GuidanceFix] = []
  var time = Date(timeIntervalSince1970: 1_700_000_000)
  for segment in first..<min(first + 90, points.count - 1) {
    let a = points[segment]
    let b = points[segment + 1]
    let bearing = GeographicDistance.initialBearing(from: a, to: b)
    for step in 0..<10 {
      let f = Double(step) / 10
      let on = GeoCoordinate(
        latitude: a.latitude + f * (b.latitude - a.latitude),
        longitude: a.longitude + f * (b.longitude - a.longitude))
      let side = fixes.count % 2 == 0 ? 90.0 : -90.0
      fixes.append(
        GuidanceFix(
          timestamp: time, coordinate: GeographicDistance.destination(from: on, bearing: bearing + side, distance: 5),
          accuracy: 5, speed: 10, course: bearing))
      time += 0.2
    }
  }
  return fixes
}

func runGuidanceBenchmarks(_ report: inout BenchReport) {
  var perFix: [Int: Double] = [:]
  for count in [100, 10_000, 100_000] {
    let points = windingRoute(count: count)
    var route: GuidanceRoute?
    let build = report.seconds { route = try? GuidanceRoute(points) }
    guard let route else {
      print("guidance bench: could not build a \(count)-point route")
      continue
    }
    report.record("guidance_route_build_\(count)", build * 1e3, "ms")

    let fixes = followingFixes(on: points)
    let passes = 200
    var following = 0
    let seconds = report.seconds {
      for _ in 0..<passes {
        var engine = GuidanceEngine(route: route, config: .driving)
        for fix in fixes {
          guidanceSink &+= engine.update(fix).count
        }
        if engine.phase == .following { following += 1 }
      }
    }
    if following != passes { print("guidance bench: \(passes - following) passes left the route") }
    let nanoseconds = seconds * 1e9 / Double(passes * fixes.count)
    perFix[count] = nanoseconds
    report.record("guidance_update_\(count)", nanoseconds, "ns/fix")

    // Joining: no progress yet, so the coarse index is searched.
    let joins = 20_000
    let joinSeconds = report.seconds {
      for index in 0..<joins {
        let fix = fixes[index % fixes.count]
        if let match = route.nearestMatch(to: fix.coordinate, within: 150, tieTolerance: 10) {
          guidanceSink &+= match.segment
        }
      }
    }
    report.record("guidance_join_\(count)", joinSeconds * 1e9 / Double(joins), "ns/fix")
  }
  if let small = perFix[100], let large = perFix[100_000], small > 0 {
    report.record("guidance_update_ratio_100k_100", large / small, "ratio")
  }
  if guidanceSink == Int.min { print("") }
}
