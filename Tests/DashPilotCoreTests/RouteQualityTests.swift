import DashPilotCore
import Foundation
import Testing

/// The wording is a tested type: it states only what the stored data supports.
@Suite struct RouteQualityTests {
  static let twelvePointFourMiles = 12.4 * 1609.344

  func distance(
    metres: Double = twelvePointFourMiles, segments: Int = 3, gaps: Int = 0, usable: Int = 500,
    inferred: Bool = false
  ) -> RouteDistance {
    RouteDistance(
      metres: metres, segments: segments, gaps: gaps, usablePositions: usable,
      usesInferredContinuity: inferred)
  }

  @Test func aCompleteRecordingReadsRecordedWithoutMarker() {
    let quality = RouteQuality(distance: distance(segments: 1))
    #expect(quality.kind == .measured)
    #expect(quality.figure == "12.4 mi")
    #expect(quality.summary == "12.4 mi recorded")
    #expect(quality.details == ["1 unbroken stretch of capture", "No capture gaps detected"])
    #expect(quality.qualifyingSentences == [])
    #expect(quality.spoken == "12.4 miles recorded.")
  }

  @Test func aPartialRouteCarriesTheTwoWordMarkerAndTheCounts() {
    let quality = RouteQuality(distance: distance(gaps: 2))
    #expect(quality.summary == "12.4 mi recorded · partial route")
    #expect(quality.details == ["3 unbroken stretches of capture", "2 capture gaps"])
    #expect(
      quality.qualifyingSentences == [
        "This is a partial route: capture was interrupted, so more was driven than was recorded."
      ])
  }

  @Test func oneGapIsSingular() {
    #expect(RouteQuality(distance: distance(gaps: 1)).details[1] == "1 capture gap")
  }

  @Test func inferredContinuityIsPartialAndSaysSo() {
    let quality = RouteQuality(distance: distance(segments: 1, inferred: true))
    #expect(quality.summary == "12.4 mi recorded · partial route")
    #expect(
      quality.details == [
        "1 unbroken stretch of capture", "No capture gaps detected",
        "Continuity was inferred from timestamps, so capture gaps cannot be seen.",
      ])
  }

  @Test func noUsablePositionIsItsOwnKindOfNothing() {
    let quality = RouteQuality(distance: .empty)
    #expect(quality.kind == .noUsablePositions)
    #expect(quality.figure == nil)
    #expect(quality.summary == "No distance measured: no usable position was recorded")
    #expect(quality.details == [])
    #expect(quality.spoken == "No distance measured: no usable position was recorded.")
  }

  @Test func positionsWithNoContinuousPairAreTheOtherKind() {
    let quality = RouteQuality(distance: distance(metres: 0, segments: 0, gaps: 3, usable: 4))
    #expect(quality.kind == .noContinuousPositions)
    #expect(quality.summary == "No distance measured: no two positions were captured continuously")
    #expect(quality.details == [])  // no counts rather than counts of zero
  }

  @Test func anUnmeasurableRouteIsNeverShownAsZero() {
    for d in [RouteDistance.empty, distance(metres: 0, segments: 0, gaps: 1, usable: 2)] {
      let q = RouteQuality(distance: d)
      let everything = ([q.summary, q.spoken, q.spokenMileage] + q.details).joined(separator: " ")
      #expect(!everything.contains("0.0"))
      #expect(!everything.contains("mi "))
    }
  }

  @Test func noPercentageAndNoOverclaimingWords() {
    let cases = [
      distance(), distance(gaps: 4), distance(inferred: true), .empty,
      distance(metres: 0, segments: 0, gaps: 1, usable: 2),
    ]
    for d in cases {
      for unit in DistanceUnit.allCases {
        let q = RouteQuality(distance: d, unit: unit)
        let text = ([q.summary, q.spoken, q.spokenMileage] + q.details + q.qualifyingSentences)
          .joined(separator: " ").lowercased()
        #expect(!text.contains("%"))
        for word in ["total", "complete", "tax", "deductible", "percent"] {
          #expect(!text.contains(word), "\(word) in \(text)")
        }
      }
    }
  }

  @Test func kilometres() {
    let quality = RouteQuality(distance: distance(metres: 19_950), unit: .kilometres)
    #expect(quality.summary == "20.0 km recorded")
    #expect(quality.spoken == "20.0 kilometres recorded.")
  }

  @Test func localeSuppliesTheSeparators() {
    let german = NumberSeparators(locale: Locale(identifier: "de_DE"))
    #expect(RouteQuality(distance: distance(), separators: german).summary == "12,4 mi recorded")
    #expect(distance().formattedMiles(locale: Locale(identifier: "de_DE")) == "12,4 mi")
    #expect(distance().formattedMiles(locale: Locale(identifier: "en_US")) == "12.4 mi")
    #expect(distance(metres: 1_234.56 * 1000).formattedKilometres(locale: Locale(identifier: "en_US")) == "1,234.6 km")
  }

  @Test func oneDecimalRoundsHalfAwayFromZero() {
    #expect(NumberSeparators.posix.format(12.35, fractionDigits: 1) == "12.4")
    #expect(NumberSeparators.posix.format(0.04, fractionDigits: 1) == "0.0")
    #expect(NumberSeparators.posix.format(1_234_567.891, fractionDigits: 1) == "1,234,567.9")
    #expect(NumberSeparators.posix.format(9.96, fractionDigits: 1) == "10.0")
  }

  @Test func theSpokenFormSpellsTheUnitAndSaysPartialOnce() {
    let quality = RouteQuality(distance: distance(gaps: 1))
    #expect(
      quality.spoken
        == "12.4 miles recorded. This is a partial route: capture was interrupted, so more was driven than was recorded."
    )
    #expect(quality.spokenMileage == "12.4 miles recorded")
    #expect(!quality.spoken.contains(" mi "))
    #expect(quality.spoken.components(separatedBy: "partial").count == 2)  // said exactly once
    #expect(!quality.spoken.contains("·"))
  }

  @Test func theDetailScreenSpeaksTheBareMileageSoNothingIsSaidTwice() {
    let quality = RouteQuality(distance: distance(gaps: 1))
    let screen = [quality.spokenMileage] + quality.qualifyingSentences
    #expect(screen.joined(separator: " ").components(separatedBy: "partial").count == 2)
  }
}
