import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Plain lines on stderr for a daemon run by hand: `dashpilotd: notice: message
/// [session=… shift=… reason=…]`. Each line is one write(2), so lines from several
/// threads never interleave.
public struct StandardErrorLogger: Logger {
  public var identifier: String
  public var minimumPriority: LogPriority

  public init(identifier: String = "dashpilotd", minimumPriority: LogPriority = .info) {
    self.identifier = identifier
    self.minimumPriority = minimumPriority
  }

  public func log(_ priority: LogPriority, _ message: String, fields: LogFields) {
    guard priority <= minimumPriority else { return }
    let bytes = Array((line(priority, message, fields: fields) + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
      }
    }
  }

  /// The line for a message, without its newline. A field is written once: a reason or
  /// another text field that the message already says (an event's message carries its
  /// reason: "capture session … started for shift 3: fixes started flowing from
  /// /dev/pts/3", "cannot connect to gpsd at …: Connection refused; retrying") is left out,
  /// where the journal keeps it as a field to search by; a one-word tag such as
  /// `reason=configuration` is written unless the message ends with it, and the session and
  /// the shift always are, for grep.
  public func line(_ priority: LogPriority, _ message: String, fields: LogFields) -> String {
    var line = "\(identifier): \(priority.label): \(message)"
    let pairs = fields.journalFields.compactMap { name, value -> String? in
      let key = (name.hasPrefix("DASHPILOT_") ? String(name.dropFirst("DASHPILOT_".count)) : name).lowercased()
      let identifies = key == "session" || key == "shift"
      let said = message.hasSuffix(value) || (value.contains(" ") && message.contains(value))
      return identifies || value.isEmpty || !said ? "\(key)=\(value)" : nil
    }
    if !pairs.isEmpty { line += " [\(pairs.joined(separator: " "))]" }
    return line
  }
}
