import Foundation
import GPSD
import Testing

/// The stamps `gpspipe -t`, `-u` and `-uu` write before each line (as gpspipe 3.22 wrote
/// them on this machine), read off and, for `-u`/`-uu`, turned into the line's arrival.
struct GPSPipeTimestampTests {
  static let json = #"{"class":"TPV","mode":3,"lat":41.41,"lon":-81.87,"eph":20.9}"#

  @Test func theMicrosecondFormDatesTheLine() throws {
    let (arrival, rest) = GPSPipeTimestamp.split("2026-12-02 13:12:46.096249: \(Self.json)"[...])
    #expect(rest == Self.json[...])
    let seconds = try #require(arrival?.timeIntervalSince1970)
    #expect(abs(seconds - 1_796_217_166.096249) < 1e-6)
  }

  @Test func theEpochFormDatesTheLineWithOrWithoutTheDateBeforeIt() throws {
    for line in ["1796217167.914012: \(Self.json)", "2026-12-02 13:12:47 1796217167.914012: \(Self.json)"] {
      let (arrival, rest) = GPSPipeTimestamp.split(line[...])
      #expect(rest == Self.json[...])
      let seconds = try #require(arrival?.timeIntervalSince1970)
      #expect(abs(seconds - 1_796_217_167.914012) < 1e-6)
    }
  }

  /// `-t` has whole seconds: read off, but it dates nothing.
  @Test func theWholeSecondFormIsReadOffButDatesNothing() {
    let (arrival, rest) = GPSPipeTimestamp.split("2026-12-02 13:12:48: \(Self.json)"[...])
    #expect(arrival == nil)
    #expect(rest == Self.json[...])
  }

  @Test func aPlainLineOrAnythingElseIsLeftAsItIs() {
    for line in [Self.json, "$GPGGA,220550,4124.7580,N,08152.2565,W,2,04,4.4,235.1,M,-34.0,M,,*7B", "# comment", ""] {
      let (arrival, rest) = GPSPipeTimestamp.split(line[...])
      #expect(arrival == nil)
      #expect(rest == line[...])
    }
  }
}
