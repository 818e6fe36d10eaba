import DashPilotCore
import Foundation
import Testing

/// The one way DashPilot writes a number, a JSON string and an instant.
struct TextFormatTests {
  @Test func fixedDecimalsRoundHalfAwayFromZero() {
    #expect(FixedDecimal.text(0.05, digits: 1) == "0.1")
    #expect(FixedDecimal.text(-0.05, digits: 1) == "-0.1")
    #expect(FixedDecimal.text(-0.04, digits: 1) == "0.0")
    #expect(FixedDecimal.text(-179.99999999, digits: 7) == "-180.0000000")
    #expect(FixedDecimal.text(42, digits: 0) == "42")
    #expect(FixedDecimal.text(0.0000004, digits: 6) == "0.000000")
    #expect(FixedDecimal.text(1_234_567.891, digits: 2, decimal: ",", grouping: ".") == "1.234.567,89")
    #expect(FixedDecimal.text(-1_234.5, digits: 1, grouping: ",") == "-1,234.5")
    #expect(FixedDecimal.text(.nan, digits: 1) == nil)
    #expect(FixedDecimal.text(1e21, digits: 0) == nil)
  }

  /// Away from ties (where C rounds the binary value and we round half away from zero),
  /// the same digits as printf.
  @Test(arguments: [0.0, 1.4, -2.26, 52.123456789, 123.4567, -33.8688, 151.2093, 19_956.3])
  func fixedDecimalsAgreeWithPrintf(value: Double) {
    for digits in [0, 1, 3, 6] {
      #expect(FixedDecimal.text(value, digits: digits) == String(format: "%.\(digits)f", value), "\(digits)")
    }
  }

  @Test func jsonStringsEscapeQuotesBackslashesAndEveryControlCharacterAndDEL() {
    #expect(JSONText.string("a\"b\\c\n\r\t\u{01}\u{1F}\u{7F}é/") == #""a\"b\\c\n\r\t\u0001\u001f\u007fé/""#)
    #expect(JSONText.number(.infinity, digits: 1) == "null")
    #expect(JSONText.number(nil, digits: 1) == "null")
    #expect(JSONText.number(2.25, digits: 1) == "2.3")
  }

  @Test func timestampsAcrossCalendarEdges() {
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 4_107_542_399.999)) == "2100-02-28T23:59:59.999Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00.000Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: .nan)) == nil)
  }

  /// A time read back from gpsd's milliseconds is a Double a hair below them: rounded, it is
  /// written as gpsd wrote it. FoundationEssentials' ISO 8601 style truncates, which is why
  /// it is not the formatter.
  @Test func timestampsRoundToTheNearestMillisecond() {
    let gpsd = Date(timeIntervalSince1970: 1_639_082_311.82)
    #expect(UTCTimestamp.string(gpsd) == "2021-12-09T20:38:31.820Z")
    #expect(gpsd.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) == "2021-12-09T20:38:31.819Z")
    #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 1_714_557_600.9996)) == "2024-05-01T10:00:01.000Z")
  }

  /// One parser, two forms: what gpsd and DashPilot write (`utc`), and besides it what other
  /// loggers write into route files (`logger`).
  @Test func timesOfBothFormsReadAlike() {
    let instant = Date(timeIntervalSince1970: 1_795_987_800.25)
    for text in ["2026-11-29T21:30:00.25Z", "2026-11-29T21:30:00.250Z"] {
      #expect(UTCTimestamp.parse(text) == instant)
      #expect(UTCTimestamp.parse(text, .logger) == instant)
    }
    for text in [
      "2026-11-29 21:30:00,25z", "2026-11-29T23:30:00.25+02:00", "2026-11-29T16:00:00.25-0530",
      "2026-11-29T21:30:00.25", " 2026-11-29T21:30:00.25Z\n",
    ] {
      #expect(UTCTimestamp.parse(text) == nil, "\(text)")
      #expect(UTCTimestamp.parse(text, .logger) == instant, "\(text)")
    }
    for text in [
      "2026-02-30T10:00:00Z", "2026-11-29T21:30:00.Z", "2026-11-29T21:30:00+2:00", "2026-11-29T21:30:00+24:00",
      "2026-11-29T21:30", "2026-11-29T21:30:00Z junk", "",
    ] {
      #expect(UTCTimestamp.parse(text, .logger) == nil, "\(text)")
    }
  }

  /// The shortest text that reads back as the same number, never with an exponent (GPX's
  /// decimals, a configured value in a message).
  @Test func shortestDecimalsHaveNoExponent() {
    #expect(FixedDecimal.shortest(3) == "3")
    #expect(FixedDecimal.shortest(-0.5) == "-0.5")
    #expect(FixedDecimal.shortest(51.500123456789) == "51.500123456789")
    #expect(FixedDecimal.shortest(-0.000012345) == "-0.000012345")
    #expect(FixedDecimal.shortest(1e-7) == "0.0000001")
    #expect(FixedDecimal.shortest(1.5e20) == "150000000000000000000")
    #expect(FixedDecimal.shortest(1e16) == "10000000000000000")
  }

  @Test func xmlTextEscapesItsFiveCharacters() {
    #expect(
      XMLText.escaped(#"Shift 7 <night> & "late" 'n' é"#)
        == "Shift 7 &lt;night&gt; &amp; &quot;late&quot; &apos;n&apos; é")
  }
}
