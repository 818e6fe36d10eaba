import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// TPV reports no receiver should send (NaN, out of range, far future, far past, broken
/// fields) between good fixes, through the real decoder, CaptureService and store: nothing
/// crashes, the bad ones are refused, and the good ones all go on being kept.
@Suite struct SyntheticBadFixTests {
  /// Good fix n: a second apart, 12 m east each (ReliabilityDrive's fix 10 n).
  static func good(_ n: Int) -> String { ReliabilityDrive.tpvLine(10 * n) }

  /// A TPV like good fix n's half-way neighbour, with `fields` replacing its own.
  static func bad(_ n: Int, _ fields: [String: String]) -> String {
    let k = 10 * n + 5
    let position = ReliabilityDrive.coordinate(k)
    var members: [(String, String)] = [
      ("class", #""TPV""#), ("device", #""/dev/ttyACM0""#), ("mode", "3"),
      ("time", "\"\(GPSDTimeText.iso(ReliabilityDrive.time(k).timeIntervalSince1970))\""),
      ("lat", String(position.latitude)), ("lon", String(position.longitude)), ("eph", "4.5"),
      ("speed", "12.0"), ("track", "90.0"),
    ]
    for (key, value) in fields {
      if let index = members.firstIndex(where: { $0.0 == key }) {
        members[index].1 = value
      } else {
        members.append((key, value))
      }
    }
    let body = members.filter { $0.1 != "-" }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
    return "{\(body)}"
  }

  /// Each bad report, and whether the decoder should still make a report of it (a line that
  /// is not JSON is dropped before capture sees it; a number too large for a Double is a
  /// missing member, so that report arrives without a latitude and is refused). The last two
  /// have a good position and garbage speed and course: they are kept, without the garbage.
  static let badReports: [(fields: [String: String], decodes: Bool)] = [
    (["lat": "NaN"], false),
    (["lat": "nan"], false),
    (["lat": #""nan""#], true),
    (["lon": "Infinity"], false),
    (["lat": "1e400"], true),
    (["lat": "91.0"], true),
    (["lat": "-90.0000001"], true),
    (["lon": "180.5"], true),
    (["lon": "-361"], true),
    (["lat": "-", "lon": "-"], true),
    (["eph": "150"], true),
    (["eph": "-3"], true),
    (["eph": "1e308"], true),
    (["eph": #""NaN""#, "epx": "-", "epy": "-"], true),
    (["eph": "-", "epx": "-", "epy": "-"], true),
    (["mode": "99"], true),
    (["mode": "1"], true),
    (["mode": #""3""#], true),
    (["time": #""2999-01-01T00:00:00.000Z""#], true),
    (["time": #""9999-12-31T23:59:59.999Z""#], true),
    (["time": #""1970-01-01T00:00:00.000Z""#], true),
    (["time": #""1999-08-21T23:59:47.000Z""#], true),
    (["time": #""0000-01-01T00:00:00Z""#], true),
    (["time": #""2024-13-45T25:61:61Z""#], true),
    (["time": "1717228805"], true),
    (["time": #""2024-06-01T08:00:05.999999999999999999999999999999Z""#], true),
    (["time": "-"], true),
    (["lat": "0", "lon": "0"], true),
    (["speed": "-5", "track": "1e308"], true),
    (["speed": "1e308", "track": "-720"], true),
  ]
  static let keptWithoutSpeedAndCourse = 2

  @Test func badReportsBetweenGoodFixesAreRefusedAndGoodOnesKept() throws {
    let capture = try StoreCapture(label: "bad-tpv")
    let wall = Date(timeIntervalSince1970: 1_764_000_000)
    #expect(capture.feed(line: ReliabilityDrive.versionLine, arrival: 100))
    #expect(capture.feed(line: ReliabilityDrive.deviceLine, arrival: 100))
    var goodTimes: [Date] = []
    var keptTimes: [Date] = []
    for n in 0..<(Self.badReports.count + 1) {
      // Good fixes arrive on time; the box's wall clock is synchronised and right.
      let arrival = 100 + Double(n)
      let fixTime = ReliabilityDrive.time(10 * n)
      #expect(capture.feed(line: Self.good(n), arrival: arrival, wallClock: fixTime + 0.2))
      goodTimes.append(fixTime)
      guard n < Self.badReports.count else { break }
      let (fields, decodes) = Self.badReports[n]
      #expect(
        capture.feed(line: Self.bad(n, fields), arrival: arrival + 0.5, wallClock: fixTime + 0.7) == decodes,
        "\(fields)")
      if n >= Self.badReports.count - Self.keptWithoutSpeedAndCourse {
        keptTimes.append(ReliabilityDrive.time(10 * n + 5))
      }
      capture.batchClock = wall + Double(n)
    }
    let stored = try capture.finish()
    #expect(StoredShiftInvariants.violations(in: stored) == [])
    let extra = stored.map(\.timestamp).filter { !goodTimes.contains($0) && !keptTimes.contains($0) }
    #expect(extra == [], "bad reports were kept: \(extra)")
    #expect(stored.map(\.timestamp) == (goodTimes + keptTimes).sorted())
    let kept = stored.filter { keptTimes.contains($0.timestamp) }
    #expect(kept.count == Self.keptWithoutSpeedAndCourse)
    #expect(kept.allSatisfy { $0.speed == nil && $0.course == nil })
    #expect(stored.filter { goodTimes.contains($0.timestamp) }.allSatisfy { $0.speed == 12 && $0.course == 90 })
    #expect(capture.service.statistics.sessionsStarted == 1)
    #expect(capture.service.statistics.saveFailures == 0)
    #expect(try capture.store.recordedDistance(ofShift: capture.shiftID).gaps == 0)
    #expect(try capture.store.integrityCheck() == ["ok"])
  }
}

/// The fix-time window the decoder applies (a product fix this suite's first run called
/// for: a TPV dated 2999 was kept and made every later fix of the shift out of order, and
/// one dated 9999 failed its save and cut the capture session).
@Suite struct FixTimeWindowTests {
  @Test func fixTimesOutsideWhatGPSCanSayAreRefused() {
    #expect(GPSDTime.fixTime("1980-01-06T00:00:00.000Z") == GPSDTime.gpsEpoch)
    #expect(GPSDTime.fixTime("1980-01-05T23:59:59.999Z") == nil)
    #expect(GPSDTime.fixTime("1970-01-01T00:00:00Z") == nil)
    #expect(GPSDTime.fixTime("2024-06-01T08:00:00.000Z") == Date(timeIntervalSince1970: 1_717_228_800))
    #expect(GPSDTime.latestFixTime == Date(timeIntervalSince1970: 5_270_486_400))
    #expect(GPSDTime.fixTime("2137-01-05T23:59:59Z") == Date(timeIntervalSince1970: 5_270_486_399))
    #expect(GPSDTime.fixTime("2137-01-06T00:00:00Z") == nil)
    #expect(GPSDTime.fixTime("2999-01-01T00:00:00Z") == nil)
    // A timestamp still parses outside the window (replay windows, activation times).
    #expect(GPSDTime.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
  }

  @Test(arguments: ["2021-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2024-04-31T00:00:00Z", "1900-02-29T00:00:00Z"])
  func daysThatDoNotExistAreNoTime(_ text: String) {
    #expect(GPSDTime.parse(text) == nil)
  }

  @Test func leapDaysExist() {
    #expect(GPSDTime.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
    #expect(GPSDTime.parse("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
  }

  @Test func aTPVDatedOutsideTheWindowHasNoTime() throws {
    let line = #"{"class":"TPV","mode":3,"time":"2999-01-01T00:00:00.000Z","lat":52.0,"lon":5.0,"eph":4.0}"#
    guard case .tpv(let tpv)? = GPSDJSONDecoder.decode(line) else {
      Issue.record("not decoded as a TPV")
      return
    }
    #expect(tpv.time == nil)
    #expect(tpv.latitude == 52.0)
  }

  /// Known defect, outside this suite's area (DashPilotCore's RouteSampleFilter): one fix
  /// dated within the window but years ahead of the others (2030 amid 2024) is kept, and
  /// every later fix of the shift is then refused as out of order; nothing lets a steady
  /// stream of consistent, earlier-dated fixes overrule it (the implausible-speed rule has
  /// such a streak, the order rule does not). When that is fixed this known issue stops
  /// being recorded and the test says so.
  @Test func aPlausibleFutureDateLocksOutTheRestOfTheShift() throws {
    let capture = try StoreCapture(label: "future-fix")
    capture.feed(line: ReliabilityDrive.versionLine, arrival: 0)
    for n in 0..<5 { capture.feed(line: SyntheticBadFixTests.good(n), arrival: Double(n)) }
    capture.feed(line: SyntheticBadFixTests.bad(4, ["time": #""2030-01-01T00:00:00.000Z""#]), arrival: 4.5)
    for n in 5..<30 { capture.feed(line: SyntheticBadFixTests.good(n), arrival: Double(n)) }
    let stored = try capture.finish()
    // The fix dated years ahead is refused on its own word; the true fixes after it are kept.
    #expect(stored.count == 30)
    #expect(StoredShiftInvariants.violations(in: stored) == [])
  }
}
