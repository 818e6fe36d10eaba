import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// Real lines, as gpsd 3.22 wrote them: from gpsd's regression logs in ../shared/gpsd-logs
/// and from a gpsd fed by gpsfake on this machine.
struct GPSDJSONDecoderTests {
  @Test func decodesATPVFromSirf2() throws {
    let line =
      #"{"class":"TPV","mode":3,"time":"2021-12-09T20:38:31.820Z","ept":0.005,"lat":37.293623733,"lon":-121.918759910,"altHAE":10.7038,"altMSL":42.8546,"alt":42.8546,"epx":29.619,"epy":50.798,"epv":192.084,"track":0.0000,"magtrack":13.0860,"magvar":13.1,"speed":0.000,"climb":0.000,"eps":101.60,"ecefx":-2686050.0000,"ecefy":-4312172.0000,"ecefz":3843374.0000,"ecefvx":0.00,"ecefvy":0.00,"ecefvz":0.00,"velN":0.000,"velE":0.000,"velD":0.000,"geoidSep":-32.151,"eph":64.600,"sep":64.600}"#
    let report = try #require(GPSDJSONDecoder.decode(line))
    guard case let .tpv(tpv) = report else {
      Issue.record("expected a TPV, got \(report)")
      return
    }
    #expect(tpv.mode == .threeDimensional)
    #expect(tpv.time == Date(timeIntervalSince1970: 1_639_082_311.82))
    #expect(tpv.latitude == 37.293623733)
    #expect(tpv.longitude == -121.918759910)
    #expect(tpv.eph == 64.6)
    #expect(tpv.epx == 29.619)
    #expect(tpv.epy == 50.798)
    #expect(tpv.speed == 0)
    #expect(tpv.track == 0)
    #expect(tpv.device == nil)
    #expect(tpv.hasPosition)
  }

  /// One unusable member costs that member only: the decoder reads each member on its own.
  @Test func aMemberOfTheWrongTypeOrOutOfRangeIsAbsentAndTheRestKept() throws {
    let line =
      #"{"class":"TPV","mode":3,"time":"2024-06-01T08:00:00.000Z","lat":1e400,"lon":"5.0","eph":4.5,"speed":"fast","track":90.0}"#
    guard case let .tpv(tpv) = try #require(GPSDJSONDecoder.decode(line)) else {
      Issue.record("expected a TPV")
      return
    }
    #expect(tpv.latitude == nil)
    #expect(tpv.longitude == nil)
    #expect(tpv.speed == nil)
    #expect(tpv.eph == 4.5)
    #expect(tpv.track == 90)
    #expect(tpv.time == Date(timeIntervalSince1970: 1_717_228_800))
    #expect(!tpv.hasPosition)
    #expect(GPSDJSONDecoder.decode(#"{"class":"TPV","lat":NaN}"#) == nil)
    #expect(GPSDJSONDecoder.decode(#"{"class":7}"#) == nil)
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#)
        == .device(GPSDDevice(path: "/dev/ttyACM0", activated: false)))
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":1717228800.5}"#)
        == .device(GPSDDevice(path: "/dev/ttyACM0", activated: true)))
  }

  @Test func decodesATPVWithoutTimeOrErrorsFromBundgZeus() throws {
    let line =
      #"{"class":"TPV","mode":3,"lat":52.850156667,"lon":5.313620000,"altHAE":42.8000,"altMSL":-4.0000,"alt":-4.0000,"magvar":1.6,"geoidSep":46.800,"eph":11.400}"#
    guard case let .tpv(tpv) = try #require(GPSDJSONDecoder.decode(line)) else {
      Issue.record("expected a TPV")
      return
    }
    #expect(tpv.time == nil)
    #expect(tpv.eph == 11.4)
    #expect(tpv.epx == nil && tpv.epy == nil && tpv.speed == nil && tpv.track == nil)
    let candidate = tpv.candidate(age: nil)
    #expect(candidate.coordinate == GeoCoordinate(latitude: 52.850156667, longitude: 5.31362))
    #expect(candidate.horizontalAccuracy == 11.4)
  }

  @Test func aNoFixTPVHasNoPosition() throws {
    let line = #"{"class":"TPV","mode":1,"time":"2023-12-09T23:59:43.000Z","ept":0.005}"#
    guard case let .tpv(tpv) = try #require(GPSDJSONDecoder.decode(line)) else {
      Issue.record("expected a TPV")
      return
    }
    #expect(tpv.mode == .noFix)
    #expect(!tpv.hasPosition)
    #expect(tpv.time == Date(timeIntervalSince1970: 1_702_166_383))
  }

  @Test func decodesTheTPVsOfGpsfakeWithDevice() throws {
    let line =
      #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-06-01T08:01:00.000Z","ept":0.005,"lat":48.850021500,"lon":2.349993000,"altHAE":82.0000,"altMSL":35.0000,"alt":35.0000,"epv":2297.700,"track":0.0000,"magtrack":0.8288,"magvar":0.8,"speed":1.502,"geoidSep":47.000,"eph":1898.100,"sep":1898.100}"#
    guard case let .tpv(tpv) = try #require(GPSDJSONDecoder.decode(line)) else {
      Issue.record("expected a TPV")
      return
    }
    #expect(tpv.device == "/dev/pts/1")
    #expect(tpv.eph == 1898.1)
    #expect(tpv.speed == 1.502)
  }

  @Test func deviceActivationAndRemoval() {
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#)
        == .device(GPSDDevice(path: "/dev/pts/1", activated: false)))
    #expect(
      GPSDJSONDecoder.decode(
        #"{"class":"DEVICE","path":"/dev/pts/3","driver":"NMEA0183","activated":"2026-11-29T21:39:08.485Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}"#
      )
        == .device(GPSDDevice(path: "/dev/pts/3", activated: true)))
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"u-blox"}"#)
        == .device(GPSDDevice(path: "/dev/ttyUSB0", activated: nil)))
  }

  @Test func versionErrorAndOtherClasses() {
    #expect(
      GPSDJSONDecoder.decode(
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        == .version(GPSDVersion(release: "3.22", protocolMajor: 3, protocolMinor: 14)))
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"ERROR","message":"Unrecognized request '?FOO'"}"#)
        == .error(message: "Unrecognized request '?FOO'"))
    #expect(
      GPSDJSONDecoder.decode(#"{"class":"SKY","time":"2023-12-09T23:59:43.000Z","nSat":0,"uSat":0}"#)
        == .other(className: "SKY"))
  }

  @Test(arguments: [
    "# Name: BT-451", "$GPRMC,235943.00,V,,S,,W,,,091223,,*1A", "", "   ", "{", "{\"class\":",
    "[1,2,3]", "{\"mode\":3}", "{\"class\":3}", "not json at all", "{\"class\":\"TPV\",\"mode\":3",
  ])
  func linesThatAreNotReportsAreNil(_ line: String) {
    #expect(GPSDJSONDecoder.decode(line) == nil)
  }

  @Test func nonFiniteOrWrongTypedFieldsAreDropped() throws {
    let line = #"{"class":"TPV","mode":"3","lat":"north","lon":[1],"eph":null,"speed":true,"time":"yesterday"}"#
    guard case let .tpv(tpv) = try #require(GPSDJSONDecoder.decode(line)) else {
      Issue.record("expected a TPV")
      return
    }
    #expect(tpv.mode == .unknown)
    #expect(tpv.latitude == nil)
    #expect(tpv.longitude == nil)
    #expect(tpv.eph == nil)
    #expect(tpv.time == nil)
  }

  /// Every TPV line of every real receiver log decodes as a TPV.
  @Test(.requiresGPSDLogs) func everyTPVLineOfTheRealLogsDecodes() throws {
    let logs = try FileManager.default.contentsOfDirectory(
      at: TestPaths.gpsdLogs, includingPropertiesForKeys: nil
    ).filter { $0.lastPathComponent.hasSuffix(".chk") }
    #expect(logs.count >= 150)
    var tpvLines = 0
    var decoded = 0
    var withPosition = 0
    for log in logs {
      let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
      // Some logs end their lines with CR LF, which Swift reads as one Character.
      for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(#"{"class":"TPV""#) {
        tpvLines += 1
        if case let .tpv(tpv)? = GPSDJSONDecoder.decode(line) {
          decoded += 1
          if tpv.hasPosition { withPosition += 1 }
        }
      }
    }
    // Counted independently with Python's json module: 13,140 lines open as a TPV (three
    // more are glued to the end of an NMEA sentence and are not reports), 10,908 of them
    // with a 2D/3D fix and a numeric position.
    #expect(tpvLines == 13_140)
    #expect(decoded == tpvLines)
    #expect(withPosition == 10_908)
  }
}

struct GPSDTimeTests {
  @Test func parsesGPSDTimestamps() {
    #expect(GPSDTime.parse("2021-12-09T20:38:31.820Z") == Date(timeIntervalSince1970: 1_639_082_311.82))
    #expect(GPSDTime.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
    #expect(GPSDTime.parse("2000-02-29T12:00:00.5Z") == Date(timeIntervalSince1970: 951_825_600.5))
    #expect(GPSDTime.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
  }

  @Test(arguments: [
    "", "2021-12-09", "2021-12-09T20:38:31", "2021-13-09T20:38:31Z", "2021-12-09T25:38:31Z",
    "2021-12-09T20:38:31.Z", "2021-12-09 20:38:31Z", "2021-12-09T20:38:31.8x0Z", "２０２１-12-09T20:38:31Z",
  ])
  func rejectsWhatGPSDDoesNotWrite(_ text: String) {
    #expect(GPSDTime.parse(text) == nil)
  }

  /// What gpsd writes reads back, and is written again (`UTCTimestamp`), as the same text.
  @Test(arguments: ["2021-12-09T20:38:31.820Z", "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z"])
  func aTimeGPSDWroteIsWrittenBackTheSame(_ text: String) throws {
    #expect(try UTCTimestamp.string(#require(GPSDTime.parse(text))) == text)
  }
}
