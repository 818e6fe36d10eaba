import Capture
import DashPilotCore
import Foundation
import Guidance
import TestSupport
import Testing

@testable import DashPilotCLI

/// The command line of `dashpilotctl replay`.
struct ReplayArgumentsTests {
  @Test func parsesEveryOption() {
    let parsed = ReplayArguments.parse([
      "drive.json", "--mode", "walking", "--units", "km", "--json",
      "--window", "2024-06-01T07:50:00Z,2024-06-01T09:00:00.5Z", "--route", "r.gpx",
    ])
    var expected = ReplayArguments(file: "drive.json")
    expected.mode = .walking
    expected.unit = .kilometres
    expected.json = true
    expected.route = "r.gpx"
    expected.window = DateInterval(
      start: Date(timeIntervalSince1970: 1_717_228_200), end: Date(timeIntervalSince1970: 1_717_232_400.5))
    #expect(parsed == .run(expected))
  }

  @Test func defaultsToMilesDrivingAndText() {
    #expect(ReplayArguments.parse(["log"]) == .run(ReplayArguments(file: "log")))
    #expect(ReplayArguments.parse(["x", "--help"]) == .help)
  }

  @Test(arguments: [
    ([String](), "a FILE (gpsd JSON log) is required"),
    (["a", "b"], "only one FILE may be given (also got 'b')"),
    (["a", "--speed"], "unknown option '--speed'"),
    (["a", "--mode", "flying"], "--mode must be driving or walking"),
    (["a", "--mode"], "--mode must be driving or walking"),
    (["a", "--units", "furlongs"], "--units must be miles or kilometres"),
    (["a", "--route"], "--route needs a FILE"),
    (["a", "--window"], "--window needs START,END"),
    (["a", "--window", "2024-06-01T08:00:00Z"], "--window must be START,END (got '2024-06-01T08:00:00Z')"),
    (
      ["a", "--window", "yesterday,2024-06-01T08:00:00Z"],
      "--window start 'yesterday' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z"
    ),
    (["a", "--window", "2024-06-01T08:00:00Z,2024-06-01T07:00:00Z"], "--window ends before it starts"),
  ])
  func namesWhatIsWrong(_ arguments: [String], _ sentence: String) {
    #expect(ReplayArguments.parse(arguments) == .usageError(sentence))
  }
}
