import DashPilotCore
import Foundation
import Guidance
import PlatformSupport
import Testing

@testable import DashPilotCLI

/// The command line of `dashpilotctl replay`, read by the same cursor as every command's.
struct ReplayArgumentsTests {
  static func parse(_ words: [String]) throws(UsageError) -> ReplayCommand {
    var cursor = ArgumentCursor(words, command: ReplayCommand.name)
    return try ReplayCommand(arguments: &cursor)
  }

  @Test func parsesEveryOptionInEitherForm() throws {
    for words in [
      [
        "drive.json", "--mode", "walking", "--units", "km", "--window",
        "2024-06-01T07:50:00Z,2024-06-01T09:00:00.5Z", "--route", "r.gpx",
      ],
      [
        "--mode=walking", "--units=km", "--window=2024-06-01T07:50:00Z,2024-06-01T09:00:00.5Z", "--route=r.gpx",
        "drive.json",
      ],
    ] {
      let command = try Self.parse(words)
      #expect(command.file == "drive.json")
      #expect(command.mode == .walking)
      #expect(command.unit == .kilometres)
      #expect(command.route == "r.gpx")
      #expect(
        command.window
          == DateInterval(
            start: Date(timeIntervalSince1970: 1_717_228_200), end: Date(timeIntervalSince1970: 1_717_232_400.5)))
    }
  }

  @Test func defaultsToMilesDrivingNoRouteNoWindow() throws {
    let command = try Self.parse(["log"])
    #expect(command.file == "log")
    #expect(command.mode == .driving)
    #expect(command.unit == .miles)
    #expect(command.route == nil)
    #expect(command.window == nil)
    #expect(command.shifts == nil)
  }

  @Test func shiftsOnMovementWithTheLimitInEachUnit() throws {
    #expect(try Self.parse(["log", "--shifts", "movement"]).shifts == ShiftPolicy.Configuration())
    for (text, seconds) in [("45min", 2700.0), ("600", 600), ("600s", 600), ("1.5h", 5400)] {
      let command = try Self.parse(["log", "--shifts=movement", "--end-after-stop", text])
      #expect(command.shifts?.endAfterStop == seconds)
      #expect(command.shifts?.startDistance == 200)
    }
  }

  @Test(arguments: [
    ([String](), "missing the gpsd JSON log FILE"),
    (["a", "b"], "unexpected argument \"b\""),
    (["a", "--speed"], "unknown option --speed"),
    (["a", "--mode", "flying"], "--mode must be driving or walking, not \"flying\""),
    (["a", "--mode"], "--mode needs a value"),
    (["a", "--units", "furlongs"], "--units must be miles or kilometres, not \"furlongs\""),
    (["a", "--route"], "--route needs a FILE"),
    (["a", "--window"], "--window needs START,END"),
    (["a", "--window", "2024-06-01T08:00:00Z"], "--window must be START,END (got '2024-06-01T08:00:00Z')"),
    (
      ["a", "--window", "yesterday,2024-06-01T08:00:00Z"],
      "--window start 'yesterday' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z"
    ),
    (["a", "--window", "2024-06-01T08:00:00Z,2024-06-01T07:00:00Z"], "--window ends before it starts"),
    (["a", "--shifts"], "--shifts needs movement"),
    (
      ["a", "--shifts", "manual"],
      "--shifts takes movement, not \"manual\" (a replay has nobody to start a shift by hand)"
    ),
    (["a", "--end-after-stop", "45min"], "--end-after-stop needs --shifts movement"),
    (
      ["a", "--shifts", "movement", "--end-after-stop", "45 minutes"],
      "--end-after-stop must be a duration such as 45min, 2700s or 1h, not \"45 minutes\""
    ),
    (
      ["a", "--shifts", "movement", "--end-after-stop", "0"],
      "--end-after-stop must be a duration such as 45min, 2700s or 1h, not \"0\""
    ),
  ])
  func namesWhatIsWrong(_ words: [String], _ sentence: String) {
    #expect(throws: UsageError(sentence, command: "replay")) { try Self.parse(words) }
  }
}
