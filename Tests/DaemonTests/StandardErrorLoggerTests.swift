import Daemon
import Testing

/// The lines `dashpilotd --foreground` writes: each field once.
struct StandardErrorLoggerTests {
  @Test func aReasonTheMessageEndsWithIsNotRepeated() {
    let logger = StandardErrorLogger()
    let reason = "fixes started flowing from /dev/pts/3"
    #expect(
      logger.line(
        .notice, "capture session 8c1f started for shift 12: " + reason,
        fields: LogFields(session: "8c1f", shift: 12, reason: reason))
        == "dashpilotd: notice: capture session 8c1f started for shift 12: fixes started flowing from /dev/pts/3 "
        + "[session=8c1f shift=12]")
    #expect(
      logger.line(.notice, reason, fields: LogFields(reason: reason))
        == "dashpilotd: notice: fixes started flowing from /dev/pts/3")
  }

  @Test func aReasonTheMessageSaysAnywhereIsNotRepeated() {
    let logger = StandardErrorLogger()
    let reason = "gpsd closed the connection"
    #expect(
      logger.line(
        .warning, "gpsd at localhost:2947 cannot be reached: \(reason); retrying", fields: LogFields(reason: reason))
        == "dashpilotd: warning: gpsd at localhost:2947 cannot be reached: gpsd closed the connection; retrying")
    // A one-word tag the message mentions is still a tag.
    #expect(
      logger.line(.info, "uplink: connected", fields: LogFields(reason: "uplink"))
        == "dashpilotd: info: uplink: connected [reason=uplink]")
  }

  @Test func fieldsTheMessageDoesNotEndWithAreWritten() {
    let logger = StandardErrorLogger()
    // A tag the message only mentions is still written.
    #expect(
      logger.line(.error, "configuration error: no such file", fields: LogFields(reason: "configuration"))
        == "dashpilotd: error: configuration error: no such file [reason=configuration]")
    #expect(
      logger.line(.warning, "store: the disk is full", fields: LogFields(reason: "store_open", extra: ["path": "/var"]))
        == "dashpilotd: warning: store: the disk is full [reason=store_open path=/var]")
    // The session and the shift are written even where the message names them, for grep.
    #expect(
      logger.line(.notice, "shift 12 ended", fields: LogFields(shift: 12))
        == "dashpilotd: notice: shift 12 ended [shift=12]")
    #expect(logger.line(.info, "started", fields: .none) == "dashpilotd: info: started")
  }
}
