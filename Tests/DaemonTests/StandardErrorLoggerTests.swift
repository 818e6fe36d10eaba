import Daemon
import Testing

/// The lines `dashpilotd --foreground` writes: each field once.
struct StandardErrorLoggerTests {
  @Test func aFieldTheMessageAlreadySaysIsNotRepeated() {
    let logger = StandardErrorLogger()
    let message = "fixes started flowing from /dev/pts/3"
    #expect(
      logger.line(.notice, message, fields: LogFields(session: "8c1f", shift: 12, reason: message))
        == "dashpilotd: notice: fixes started flowing from /dev/pts/3 [session=8c1f shift=12]")
  }

  @Test func fieldsTheMessageDoesNotSayAreWritten() {
    let logger = StandardErrorLogger()
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
