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
    var line = "\(identifier): \(priority.label): \(message)"
    let pairs = fields.journalFields.map { name, value in
      "\((name.hasPrefix("DASHPILOT_") ? String(name.dropFirst("DASHPILOT_".count)) : name).lowercased())=\(value)"
    }
    if !pairs.isEmpty { line += " [\(pairs.joined(separator: " "))]" }
    line += "\n"
    let bytes = Array(line.utf8)
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
}
