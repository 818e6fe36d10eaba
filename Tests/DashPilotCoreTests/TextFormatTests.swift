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
}
