import DashPilotCore
import Foundation
import Testing

@Suite struct RouteDistanceTests {
  @Test func convertsInOnePlace() {
    let d = RouteDistance(metres: 16_093.44, segments: 1, gaps: 0, usablePositions: 2, usesInferredContinuity: false)
    #expect(abs(d.value(in: .miles) - 10) < 1e-12)
    #expect(abs(d.value(in: .kilometres) - 16.09344) < 1e-12)
    #expect(d.formatted(in: .miles) == "10.0 mi")
  }

  @Test func measuredAndPartialAreDerived() {
    let gapless = RouteDistance(metres: 1, segments: 1, gaps: 0, usablePositions: 2, usesInferredContinuity: false)
    #expect(gapless.isMeasured && !gapless.isPartial)
    var gappy = gapless
    gappy.gaps = 1
    #expect(gappy.isPartial)
    var inferred = gapless
    inferred.usesInferredContinuity = true
    #expect(inferred.isPartial)
  }

  @Test func unitNames() {
    #expect(DistanceUnit(name: "KM") == .kilometres)
    #expect(DistanceUnit(name: "miles") == .miles)
    #expect(DistanceUnit(name: "furlongs") == nil)
  }
}
