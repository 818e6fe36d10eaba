import DashPilotCore
import Foundation

/// Random routes for the store's property tests: steps of random length, interval and
/// bearing, with occasional long silences and changes of capture session, in strictly
/// increasing time (what capture's filter guarantees), in whole milliseconds as the store
/// keeps them.
public enum StoreRandomRoutes {
  public static func route(
    count: Int, using generator: inout SeededGenerator,
    start: Date = Date(timeIntervalSince1970: 1_700_000_000),
    sessionChangeChance: Double = 0.04, silenceChance: Double = 0.05, anonymousSessions: Bool = false
  ) -> [RouteSample] {
    var samples: [RouteSample] = []
    var position = GeoCoordinate(latitude: 51.5, longitude: -0.12)
    var time = start
    var sessionNumber = 1
    func session() -> CaptureSessionID? {
      anonymousSessions ? nil : CaptureSessionID("random-\(sessionNumber)")
    }
    for index in 0..<count {
      if index > 0 {
        if Double.random(in: 0..<1, using: &generator) < sessionChangeChance { sessionNumber += 1 }
        let milliseconds =
          Double.random(in: 0..<1, using: &generator) < silenceChance
          ? Int.random(in: 100_000...400_000, using: &generator)
          : Int.random(in: 200...12_000, using: &generator)
        time += Double(milliseconds) / 1000
        position = GeographicDistance.destination(
          from: position, bearing: Double.random(in: 0..<360, using: &generator),
          distance: Double.random(in: 0...250, using: &generator))
      }
      samples.append(
        RouteSample(
          timestamp: time, coordinate: position,
          horizontalAccuracy: Double(Int.random(in: 300...5_000, using: &generator)) / 100,
          speed: Double(Int.random(in: 0...3_000, using: &generator)) / 100,
          course: Double(Int.random(in: 0..<36_000, using: &generator)) / 100, captureSessionID: session()))
    }
    return samples
  }
}
