import ControlProtocol
import DashPilotCore
import Foundation
import Testing

@testable import Uplink

/// What becomes of each message on the command topic before anything runs: every bad input
/// of the issue with its exact code, the rate, the allow list, the channel's own rules.
@Suite("Command intake")
struct CommandIntakeTests {
  static let topic = "dashpilot/van-7/command"

  func message(_ text: String, retained: Bool = false) -> InboundCommand {
    InboundCommand(topic: Self.topic, payload: Array(text.utf8), size: text.utf8.count, retained: retained)
  }

  func judged(_ text: String, allowed: Set<ControlCommand.Kind> = UplinkConfiguration.defaultAllowedCommands)
    -> CommandIntake.Decision
  {
    var intake = CommandIntake(allowed: allowed)
    return intake.judge(message(text), now: 0)
  }

  @Test("a well-formed allowed command is run, with its id")
  func runs() {
    #expect(
      judged(#"{"v":1,"id":"office-41","cmd":"shift.end"}"#)
        == .run(ControlRequest(id: "office-41", command: .shiftEnd), id: "office-41"))
  }

  @Test(
    "every bad input is refused with its code, and with a reply exactly when an id can be read",
    arguments: [
      ("{not json", ControlError.Code.notJSON, false),
      (#"["v",1]"#, .badRequest, false),
      (#"{"v":2,"id":"a","cmd":"status"}"#, .unsupportedVersion, true),
      (#"{"v":1,"id":"a","cmd":"reboot"}"#, .unknownCommand, true),
      (#"{"v":1,"id":"a","cmd":"navigate","args":{"destination":{"lat":95,"lon":0}}}"#, .badArguments, true),
      (#"{"v":1,"id":"a","cmd":"navigate"}"#, .badArguments, true),
      (#"{"v":1,"id":"a","cmd":"status","args":{"verbose":true}}"#, .badArguments, true),
      (#"{"v":1,"id":7,"cmd":"status"}"#, .badRequest, true),
      (#"{"v":1,"cmd":"status"}"#, .badRequest, false),
      (#"{"v":1,"id":"a","cmd":"shifts"}"#, .notAllowed, true),
      (
        #"{"v":1,"id":"a","cmd":"route.load","args":{"coordinates":[{"lat":1,"lon":2},{"lat":1,"lon":3}],"more":true}}"#,
        .badArguments, true
      ),
    ])
  func refusals(text: String, code: ControlError.Code, answered: Bool) {
    guard case .refuse(let id, let error, _) = judged(text) else {
      Issue.record("\(text) was run")
      return
    }
    #expect(error.code == code, "\(error.message)")
    #expect((id != nil) == answered)
  }

  @Test("a payload over 1 MiB is refused unread as too_large, logged since no id can be read")
  func tooLarge() {
    var intake = CommandIntake(allowed: UplinkConfiguration.defaultAllowedCommands)
    let decision = intake.judge(
      InboundCommand(topic: Self.topic, payload: nil, size: 1_048_577), now: 0)
    #expect(
      decision
        == .refuse(
          id: nil, ControlError(.tooLarge, "the command is 1048577 bytes; the limit is 1048576"),
          log:
            "uplink: refused a message of 1048577 bytes on dashpilot/van-7/command without a reply (no id could be read): "
            + "too_large: the command is 1048577 bytes; the limit is 1048576"))
  }

  @Test("what cannot be answered is logged with its code; what can is answered and not logged")
  func logging() {
    #expect(
      judged("{not json")
        == .refuse(
          id: nil, ControlError(.notJSON, "the request is not valid JSON"),
          log:
            "uplink: refused a message of 9 bytes on dashpilot/van-7/command without a reply (no id could be read): "
            + "not_json: the request is not valid JSON"))
    #expect(
      judged(#"{"v":2,"id":"a","cmd":"status"}"#)
        == .refuse(
          id: "a",
          ControlError(.unsupportedVersion, "protocol version 2 is not supported; this daemon speaks version 1"),
          log: nil))
  }

  @Test("not_allowed is logged once per command name")
  func notAllowedOncePerName() {
    var intake = CommandIntake(allowed: [.status])
    var lines: [String?] = []
    for (index, command) in ["shift.end", "shift.end", "navigate", "shift.end"].enumerated() {
      let args = command == "navigate" ? #","args":{"destination":{"lat":1,"lon":2}}"# : ""
      guard
        case .refuse(_, let error, let line) = intake.judge(
          message(#"{"v":1,"id":"c\#(index)","cmd":"\#(command)"\#(args)}"#), now: Double(index))
      else {
        Issue.record("\(command) was run")
        return
      }
      #expect(
        error == ControlError(.notAllowed, "\(command) is not taken over MQTT on this box ([Uplink] AllowedCommands=)"))
      lines.append(line)
    }
    #expect(
      lines == [
        "uplink: refused shift.end over MQTT (command \"c0\"): [Uplink] AllowedCommands= does not list it;"
          + " further shift.end commands are refused without a log line", nil,
        "uplink: refused navigate over MQTT (command \"c2\"): [Uplink] AllowedCommands= does not list it;"
          + " further navigate commands are refused without a log line", nil,
      ])
  }

  @Test("a report's route in \"more\" parts is refused as an import's and a route load's are")
  func reportInParts() {
    #expect(
      judged(
        #"{"v":1,"id":"p","cmd":"report","args":{"id":3,"route":[{"lat":1,"lon":2}],"more":true}}"#,
        allowed: [.report])
        == .refuse(
          id: "p",
          ControlError(
            .badArguments,
            "report: a fleet command carries the whole of it in one message (up to 1 MiB); \"more\" parts are for the control socket's 64 KiB lines"
          ), log: nil))
  }

  @Test("a job list in \"more\" parts is refused: over MQTT a list comes whole")
  func jobListInParts() {
    #expect(
      judged(
        #"{"v":1,"id":"day","cmd":"job.assign_all","args":{"jobs":[{"id":"A","name":"A","destination":{"lat":1,"lon":2}}],"more":true}}"#
      )
        == .refuse(
          id: "day",
          ControlError(
            .badArguments,
            "job.assign_all: a fleet command carries the whole of it in one message (up to 1 MiB); \"more\" parts are for the control socket's 64 KiB lines"
          ), log: nil))
  }

  @Test("a retained message is refused, not run")
  func retained() {
    var intake = CommandIntake(allowed: [.status])
    guard
      case .refuse(let id, let error, _) = intake.judge(
        message(#"{"v":1,"id":"r","cmd":"status"}"#, retained: true), now: 0)
    else {
      Issue.record("a retained command was run")
      return
    }
    #expect(id == "r")
    #expect(error.code == .badRequest)
  }

  static let busy =
    "more than 10 commands a second after a burst of 200: this one was not run; send it again (with the same id) shortly"

  @Test("a burst of 200 is taken at once, the 201st is busy (with its id), then ten a second")
  func rate() {
    var intake = CommandIntake(allowed: [.status])
    let arrivals =
      Array(repeating: 0.0, count: 201) + [0.05, 0.1] + Array(repeating: 0.5, count: 6)
      + Array(repeating: 1.2, count: 8) + [1.999, 2.0]
    var outcomes: [String] = []
    var busyLogs: [Double] = []
    for (index, now) in arrivals.enumerated() {
      switch intake.judge(message(#"{"v":1,"id":"s\#(index)","cmd":"status"}"#), now: now) {
      case .run: outcomes.append("run")
      case .refuse(let id, let error, let line):
        #expect(id == .text("s\(index)"))
        #expect(error == ControlError(.busy, Self.busy))
        if line != nil { busyLogs.append(now) }
        outcomes.append("busy")
      }
    }
    // 200 at 0, none more then nor at 0.05 (half a token), one at 0.1; at 0.5 the four
    // tokens 0.4 s gave, at 1.2 the seven 0.7 s gave; at 1.999 and 2.0 some of the eight since.
    #expect(outcomes.enumerated().filter { $0.element == "busy" }.map(\.offset) == [200, 201, 207, 208, 216])
    #expect(outcomes.count == 219)
    // One line a second at most, however many are refused.
    #expect(busyLogs == [0, 1.2])
  }

  @Test("garbage counts against the rate too: a flood of it makes well-formed commands busy")
  func garbageCountsAgainstTheRate() {
    var intake = CommandIntake(allowed: [.status])
    for index in 0..<200 { _ = intake.judge(message("garbage \(index)"), now: 0.5) }
    guard case .refuse(let id, let error, _) = intake.judge(message(#"{"v":1,"id":"late","cmd":"status"}"#), now: 0.55)
    else {
      Issue.record("a message past the burst was run with half a token")
      return
    }
    #expect(id == "late")
    #expect(error.code == .busy)
    #expect(
      intake.judge(message(#"{"v":1,"id":"next","cmd":"status"}"#), now: 1.5)
        == .run(
          ControlRequest(id: "next", command: .status), id: "next"))
  }
}
