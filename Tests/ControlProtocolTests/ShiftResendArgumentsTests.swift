import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// `shift.resend`'s arguments as the one parser reads them: the shift, and an optional time
/// range whose ends are both included.
@Suite("shift.resend arguments")
struct ShiftResendArgumentsTests {
  static func parsed(_ args: String) -> Result<ControlCommand, ControlError> {
    RequestParser.parse(Array(#"{"v":1,"id":"r","cmd":"shift.resend","args":\#(args)}"#.utf8))
      .map(\.command).mapError(\.error)
  }

  @Test("the shift alone, or with a range; written back as read")
  func reads() throws {
    #expect(try Self.parsed(#"{"id":4}"#).get() == .shiftResend(ShiftResendArguments(id: 4)))
    let since = try #require(UTCTimestamp.parse("2024-05-01T10:00:00Z"))
    let until = try #require(UTCTimestamp.parse("2024-05-01T10:05:00.250Z"))
    let ranged = ControlCommand.shiftResend(ShiftResendArguments(id: 4, since: since, until: until))
    #expect(
      try Self.parsed(#"{"id":4,"since":"2024-05-01T10:00:00Z","until":"2024-05-01T10:05:00.250Z"}"#).get() == ranged)
    // One instant is a range too: the samples of that time.
    #expect(
      try Self.parsed(#"{"id":4,"since":"2024-05-01T10:00:00Z","until":"2024-05-01T10:00:00Z"}"#).get()
        == .shiftResend(ShiftResendArguments(id: 4, since: since, until: since)))
    let line = ControlRequest(id: "r", command: ranged).encodedLine()
    #expect(try RequestParser.parse(Array(line)).get().command == ranged)
    // The wire carries milliseconds: a finer time is read as the millisecond it is written
    // back as, so the request survives its own line (the fuzzer's finding).
    let fine = try RequestParser.parse(
      Array(#"{"v":1,"id":"r","cmd":"shift.resend","args":{"id":3,"until":"2024-05-01T10:05:00.2504Z"}}"#.utf8)
    ).get()
    #expect(fine.command == .shiftResend(ShiftResendArguments(id: 3, until: until)))
    #expect(try RequestParser.parse(Array(fine.encodedLine())).get() == fine)
    #expect(ControlCommand.Kind.shiftResend.changesState)
  }

  @Test(
    "each mistake named",
    arguments: [
      ("{}", #"shift.resend: needs an integer "id""#),
      (#"{"id":0}"#, #"shift.resend: "id" must be between 1 and 9223372036854775807"#),
      (#"{"id":4,"since":"yesterday"}"#, #"shift.resend: "since" must be a UTC time such as 2026-11-01T00:00:00Z"#),
      (
        #"{"id":4,"since":"2024-05-01T10:00:00Z","until":"2024-05-01T09:00:00Z"}"#,
        #"shift.resend: "until" must not come before "since""#
      ),
      (#"{"id":4,"from":"2024-05-01T10:00:00Z"}"#, #"shift.resend: does not take the argument "from""#),
    ])
  func refusals(args: String, message: String) {
    #expect(Self.parsed(args) == .failure(ControlError(.badArguments, message)))
  }
}
