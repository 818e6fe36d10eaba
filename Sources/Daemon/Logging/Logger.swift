import FoundationEssentials

/// syslog priorities, as the journal's PRIORITY field takes them.
public enum LogPriority: Int32, Sendable, Hashable, Comparable {
  case emergency = 0
  case alert, critical, error, warning, notice, info, debug

  public static func < (lhs: LogPriority, rhs: LogPriority) -> Bool { lhs.rawValue < rhs.rawValue }

  var label: String {
    switch self {
    case .emergency: "emergency"
    case .alert: "alert"
    case .critical: "critical"
    case .error: "error"
    case .warning: "warning"
    case .notice: "notice"
    case .info: "info"
    case .debug: "debug"
    }
  }
}

/// The structured fields a line may carry, so `journalctl DASHPILOT_SHIFT=12` finds every
/// line about shift 12. Field names are the journal's (upper case, `DASHPILOT_` prefix).
public struct LogFields: Sendable, Hashable {
  public var session: String?
  public var shift: Int64?
  public var reason: String?
  /// More fields; keys are upper-case journal field names without the prefix.
  public var extra: [String: String]

  public init(session: String? = nil, shift: Int64? = nil, reason: String? = nil, extra: [String: String] = [:]) {
    self.session = session
    self.shift = shift
    self.reason = reason
    self.extra = extra
  }

  public static let none = LogFields()

  /// The fields as journal `NAME=value` pairs, in a stable order.
  public var journalFields: [(String, String)] {
    var fields: [(String, String)] = []
    if let session { fields.append(("DASHPILOT_SESSION", session)) }
    if let shift { fields.append(("DASHPILOT_SHIFT", String(shift))) }
    if let reason { fields.append(("DASHPILOT_REASON", reason)) }
    for key in extra.keys.sorted() {
      let name = "DASHPILOT_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
      fields.append((name, extra[key] ?? ""))
    }
    return fields
  }
}

/// Where the daemon's lines go. Every component gets one; one line per thing a person
/// would want to read in `journalctl -u dashpilotd`.
public protocol Logger: Sendable {
  func log(_ priority: LogPriority, _ message: String, fields: LogFields)
}

extension Logger {
  public func error(_ message: String, fields: LogFields = .none) { log(.error, message, fields: fields) }
  public func warning(_ message: String, fields: LogFields = .none) { log(.warning, message, fields: fields) }
  public func notice(_ message: String, fields: LogFields = .none) { log(.notice, message, fields: fields) }
  public func info(_ message: String, fields: LogFields = .none) { log(.info, message, fields: fields) }
  public func debug(_ message: String, fields: LogFields = .none) { log(.debug, message, fields: fields) }
}

/// Chooses the journal when systemd started the process (its stderr is the journal
/// stream it announced, or it runs in a unit on a booted systemd), plain stderr lines
/// otherwise.
public enum LoggerSelection {
  public static func standard(
    identifier: String = "dashpilotd", environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> any Logger {
    if JournalLogger.isConnectedToJournal(environment: environment) {
      return JournalLogger(identifier: identifier)
    }
    return StandardErrorLogger(identifier: identifier)
  }
}
