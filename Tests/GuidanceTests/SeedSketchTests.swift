import Guidance
import Testing

/// The eight cases of the seed's sketch, run through the real engine on real geometry; the
/// expected results are the ones the sketch prints.
@Suite("Seed sketch through the engine")
struct SeedSketchTests {
  @Test("first fix 110 m off (car park): joined, never off route")
  func carPark() throws {
    #expect(try runTrace([Sample(110, 15, 0)]) == TraceResult(joined: true, offRouteAt: []))
  }

  @Test("first fix 160 m off: never joined")
  func tooFarToJoin() throws {
    #expect(try runTrace([Sample(160, 15, 0)]) == TraceResult(joined: false, offRouteAt: []))
  }

  @Test("one wild fix with accuracy 10 is a rumour")
  func oneWildFix() throws {
    let result = try runTrace([Sample(5, 5, 0), Sample(200, 10, 1), Sample(5, 5, 2), Sample(5, 5, 3)])
    #expect(result == TraceResult(joined: true, offRouteAt: []))
  }

  @Test("three misses inside 1.5 s are not enough time")
  func burst() throws {
    let result = try runTrace([Sample(5, 5, 0), Sample(90, 8, 1), Sample(90, 8, 1.5), Sample(90, 8, 2.5)])
    #expect(result == TraceResult(joined: true, offRouteAt: []))
  }

  @Test("left the road at 1 fix/s: the duration binds, off route at t=5")
  func leftTheRoad() throws {
    let samples = [Sample(5, 5, 0)] + (1...8).map { Sample(60 + Double($0) * 12, 8, Double($0)) }
    #expect(try runTrace(samples) == TraceResult(joined: true, offRouteAt: [5]))
  }

  @Test("sparse fixes, 1 per 5 s: the count binds, off route at t=15")
  func sparse() throws {
    let result = try runTrace([Sample(5, 5, 0), Sample(90, 8, 5), Sample(90, 8, 10), Sample(90, 8, 15)])
    #expect(result == TraceResult(joined: true, offRouteAt: [15]))
  }

  @Test("accuracy 60: 70 m is still on the route")
  func vagueFixGetsSlack() throws {
    let result = try runTrace([
      Sample(5, 5, 0), Sample(70, 60, 1), Sample(70, 60, 2), Sample(70, 60, 3), Sample(70, 60, 9),
    ])
    #expect(result == TraceResult(joined: true, offRouteAt: []))
  }

  @Test("a 150 m-accuracy fix is ignored: neither miss nor reset, off route at t=5")
  func untrustedFixIsSilent() throws {
    let result = try runTrace([
      Sample(5, 5, 0), Sample(90, 8, 1), Sample(90, 150, 2), Sample(90, 8, 3), Sample(90, 8, 5),
    ])
    #expect(result == TraceResult(joined: true, offRouteAt: [5]))
  }
}

/// The exercise: five traces under a count-only, a duration-only and a two-gate judge.
@Suite("Exercise: count gate, duration gate, both")
struct ConfirmationGateTests {
  static func config(confirmations: Int, minDuration: Double) -> GuidanceConfig {
    var config = GuidanceConfig.driving
    config.offRouteConfirmations = confirmations
    config.offRouteMinDuration = minDuration
    return config
  }

  static let countOnly = config(confirmations: 3, minDuration: 0)
  static let durationOnly = config(confirmations: 1, minDuration: 4)
  static let bothGates = GuidanceConfig.driving

  static let on = (lateral: 5.0, accuracy: 5.0)
  static let miss = (lateral: 90.0, accuracy: 8.0)
  static let untrusted = (lateral: 90.0, accuracy: 150.0)

  static func trace(_ items: [(lateral: Double, accuracy: Double, time: Double)]) -> [Sample] {
    items.map { Sample($0.lateral, $0.accuracy, $0.time) }
  }

  static let traces: [String: [Sample]] = [
    "single spike": trace([
      (on.lateral, on.accuracy, 0), (miss.lateral, miss.accuracy, 1), (on.lateral, on.accuracy, 2),
      (on.lateral, on.accuracy, 3),
    ]),
    "burst of three inside one second": trace([
      (on.lateral, on.accuracy, 0), (miss.lateral, miss.accuracy, 1),
      (miss.lateral, miss.accuracy, 1.3), (miss.lateral, miss.accuracy, 1.6),
      (on.lateral, on.accuracy, 2), (on.lateral, on.accuracy, 3),
    ]),
    "sparse samples far apart": trace([
      (on.lateral, on.accuracy, 0), (miss.lateral, miss.accuracy, 10),
      (miss.lateral, miss.accuracy, 20), (on.lateral, on.accuracy, 21),
    ]),
    "sustained real departure": trace(
      [(on.lateral, on.accuracy, 0)] + (1...8).map { (miss.lateral, miss.accuracy, Double($0)) }),
    "sustained departure with one untrustworthy sample": trace([
      (on.lateral, on.accuracy, 0), (miss.lateral, miss.accuracy, 1), (miss.lateral, miss.accuracy, 2),
      (untrusted.lateral, untrusted.accuracy, 3), (miss.lateral, miss.accuracy, 4),
      (miss.lateral, miss.accuracy, 5), (miss.lateral, miss.accuracy, 6), (miss.lateral, miss.accuracy, 7),
    ]),
  ]

  /// Fire times for (count only, duration only, both). The burst row is the one the seed
  /// points at: the count alone fires, both gates do not. The untrustworthy sample neither
  /// resets the streak (count-only would fire at t=6, duration at t=8) nor counts (count-only
  /// would fire at t=3).
  static let expected: [String: [[Double]]] = [
    "single spike": [[], [], []],
    "burst of three inside one second": [[1.6], [], []],
    "sparse samples far apart": [[], [20], []],
    "sustained real departure": [[3], [5], [5]],
    "sustained departure with one untrustworthy sample": [[4], [5], [5]],
  ]

  @Test(arguments: traces.keys.sorted())
  func table(trace name: String) throws {
    let samples = try #require(Self.traces[name])
    let fired = try [Self.countOnly, Self.durationOnly, Self.bothGates].map {
      try runTrace(samples, config: $0).offRouteAt
    }
    #expect(fired == Self.expected[name])
  }
}
