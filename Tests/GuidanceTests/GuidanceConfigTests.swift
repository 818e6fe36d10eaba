import Foundation
import Guidance
import Testing

@Suite("Guidance presets")
struct GuidanceConfigTests {
  @Test func drivingNumbers() {
    let c = GuidanceConfig.driving
    #expect(c.offRouteDistance == 45)
    #expect(c.accuracyMargin == 20)
    #expect(c.maxMatchAccuracy == 120)
    #expect(c.joinDistance == 150)
    #expect(c.offRouteConfirmations == 3)
    #expect(c.offRouteMinDuration == 4)
    #expect(c.oppositeCourseDegrees == 120)
    #expect(c.courseTrustSpeed == 4)
    #expect(c.lookBehind == 80)
    #expect(c.minLookAhead == 500)
    #expect(c.arrivalDistance == 35)
    #expect(c.rerouteRetryInterval == 15)
  }

  @Test func walkingNumbers() {
    let c = GuidanceConfig.walking
    #expect(c.offRouteDistance == 35)
    #expect(c.accuracyMargin == 20)
    #expect(c.maxMatchAccuracy == 120)
    #expect(c.joinDistance == 100)
    #expect(c.offRouteConfirmations == 3)
    #expect(c.offRouteMinDuration == 10)
    #expect(c.oppositeCourseDegrees == 181)
    #expect(c.courseTrustSpeed == 4)
    #expect(c.lookBehind == 80)
    #expect(c.minLookAhead == 500)
    #expect(c.arrivalDistance == 35)
    #expect(c.rerouteRetryInterval == 15)
  }

  @Test func presetForMode() {
    #expect(GuidanceConfig.preset(for: .driving) == .driving)
    #expect(GuidanceConfig.preset(for: .walking) == .walking)
    #expect(GuidanceConfig.driving != .walking)
  }

  @Test func phaseRawValues() throws {
    #expect(GuidancePhase.allCases.map(\.rawValue) == ["waiting_for_fix", "following", "off_route", "arrived"])
    let json = try JSONEncoder().encode([GuidancePhase.offRoute, .waitingForFix])
    #expect(String(decoding: json, as: UTF8.self) == #"["off_route","waiting_for_fix"]"#)
    #expect(try JSONDecoder().decode(GuidancePhase.self, from: Data(#""arrived""#.utf8)) == .arrived)
  }

  @Test func eventNames() {
    #expect(
      [GuidanceEvent.joined, .offRoute(lateral: 60), .backOnRoute, .progress(along: 1, remaining: 2), .arrived]
        .map(\.name) == ["joined", "off_route", "back_on_route", "progress", "arrived"])
  }
}

@Suite("Event encoding")
struct GuidanceEventCodingTests {
  @Test("events encode flat, an infinite lateral as null, and decode back")
  func roundTrip() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let events: [GuidanceEvent] = [
      .joined, .offRoute(lateral: 61.5), .offRoute(lateral: .infinity), .backOnRoute,
      .progress(along: 120.5, remaining: 880.25), .arrived,
    ]
    let lines = try events.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    #expect(
      lines == [
        #"{"event":"joined"}"#, #"{"event":"off_route","lateral":61.5}"#,
        #"{"event":"off_route","lateral":null}"#, #"{"event":"back_on_route"}"#,
        #"{"along":120.5,"event":"progress","remaining":880.25}"#, #"{"event":"arrived"}"#,
      ])
    let decoded = try lines.map { try JSONDecoder().decode(GuidanceEvent.self, from: Data($0.utf8)) }
    #expect(decoded == events)
    let timed = TimedGuidanceEvent(.arrived, at: Date(timeIntervalSince1970: 10))
    #expect(try JSONDecoder().decode(TimedGuidanceEvent.self, from: try JSONEncoder().encode(timed)) == timed)
  }

  @Test("an unknown event name is a clear decoding error")
  func unknown() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(GuidanceEvent.self, from: Data(#"{"event":"teleported"}"#.utf8))
    }
  }
}
