import ControlProtocol
import Foundation
import Testing

@testable import Uplink

/// The command channel as `dashpilotctl status` shows it: on or off, the last command and
/// when, and the refusals by code; the queue's and the loop's counts merged into one.
@Suite("The command channel's status")
struct CommandTallyTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)
  let configuration = UplinkConfiguration(host: "broker", vehicleID: "van-7", acceptCommands: true)

  @Test("on: the last command, how long ago and what became of it, then the refusals, most first")
  func onWithRefusals() {
    var queue = CommandTally()
    for _ in 0..<4 { queue.receive() }
    queue.note(id: "office-40", command: nil, outcome: "busy", at: t0)
    queue.note(id: "office-39", command: nil, outcome: "busy", at: t0)
    queue.note(id: nil, command: nil, outcome: "not_json", at: t0 + 1)
    var loop = CommandTally()
    loop.note(id: "office-41", command: "navigate", outcome: "ok", at: t0 + 2)
    let section = queue.merging(loop).section(configuration: configuration, now: t0 + 14)
    #expect(section.summary == "on · last navigate (office-41) 12 s ago: ok · refused 3 (busy 2, not_json 1)")
    #expect(section.accepting)
    #expect(section.topic == "dashpilot/van-7/command")
    #expect(section.received == 4)
    #expect(section.succeeded == 1)
    #expect(section.refused == ["busy": 2, "not_json": 1])
    #expect(
      section.last == CommandChannelSection.LastCommand(id: "office-41", command: "navigate", at: t0 + 2, outcome: "ok")
    )
  }

  @Test("on with nothing yet; a message with no id is the last as a message; off says how to turn it on")
  func nothingYetAndOff() {
    #expect(CommandTally().section(configuration: configuration, now: t0).summary == "on · no command yet")
    var tally = CommandTally()
    tally.note(id: nil, command: nil, outcome: "too_large", at: t0)
    #expect(
      tally.section(configuration: configuration, now: t0 + 150).summary
        == "on · last message 2 min ago: too_large · refused 1 (too_large 1)")
    var off = configuration
    off.acceptCommands = false
    #expect(tally.section(configuration: off, now: t0).summary == "off (AcceptCommands=no)")
  }
}
