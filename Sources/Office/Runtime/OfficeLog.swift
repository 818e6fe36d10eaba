import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Lines on standard error, one write(2) each so processes and threads never interleave:
/// `dashpilot-officed: worker 2: warning: ...`. Under systemd (JOURNAL_STREAM set) each line
/// starts with its syslog priority (`<4>`), which the journal reads as the entry's priority
/// and strips (`journalctl -u dashpilot-officed -p warning`).
public struct OfficeLog: Sendable {
  public enum Priority: Int, Sendable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6

    var label: String {
      switch self {
      case .error: "error"
      case .warning: "warning"
      case .notice: "notice"
      case .info: "info"
      }
    }
  }

  /// "worker 2", or nil for the service itself.
  public var source: String?
  private let toJournal = getenv("JOURNAL_STREAM") != nil

  public init(source: String? = nil) { self.source = source }

  public func error(_ message: String) { write(.error, message) }
  public func warning(_ message: String) { write(.warning, message) }
  public func notice(_ message: String) { write(.notice, message) }
  public func info(_ message: String) { write(.info, message) }

  public func write(_ priority: Priority, _ message: String) {
    let prefix = toJournal ? "<\(priority.rawValue)>" : ""
    let line = "\(prefix)dashpilot-officed: \(source.map { "\($0): " } ?? "")\(priority.label): \(message)\n"
    let bytes = Array(line.utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

/// A message said at most once per interval: the first at once, later ones counted and
/// summed into the next line ("and 41 more like it in the last second").
public struct LogThrottle: Sendable {
  public let interval: Double
  private var lastSaid: Double?
  private var held = 0

  public init(interval: Double = 1) { self.interval = interval }

  /// Whether to say it now, and how many were held back since the last line.
  public mutating func admit(now: Double) -> (say: Bool, heldBack: Int) {
    if let lastSaid, now - lastSaid < interval {
      held += 1
      return (false, 0)
    }
    defer { held = 0 }
    lastSaid = now
    return (true, held)
  }
}
