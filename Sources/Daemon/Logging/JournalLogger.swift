import CSystemd
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Lines to the journal with their priority and structured fields, through
/// `sd_journal_sendv` (`sd_journal_send` is variadic, which Swift cannot call).
public struct JournalLogger: Logger {
  public var identifier: String

  public init(identifier: String = "dashpilotd") { self.identifier = identifier }

  public func log(_ priority: LogPriority, _ message: String, fields: LogFields) {
    var pairs: [String] = [
      "MESSAGE=\(message)",
      "PRIORITY=\(priority.rawValue)",
      "SYSLOG_IDENTIFIER=\(identifier)",
    ]
    for (name, value) in fields.journalFields { pairs.append("\(name)=\(value)") }
    let buffers = pairs.map { Array($0.utf8) }
    var vectors: [iovec] = []
    vectors.reserveCapacity(buffers.count)
    // The buffers outlive the call: they are only borrowed while sd_journal_sendv runs.
    withPointers(buffers[...], collected: &vectors) { vectors in
      _ = vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
    }
  }

  private func withPointers(
    _ remaining: ArraySlice<[UInt8]>, collected: inout [iovec], _ body: ([iovec]) -> Void
  ) {
    guard let first = remaining.first else {
      body(collected)
      return
    }
    first.withUnsafeBytes { bytes in
      collected.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
      withPointers(remaining.dropFirst(), collected: &collected, body)
    }
  }

  /// True when stderr is the stream systemd announced in `JOURNAL_STREAM` (device:inode),
  /// or, failing that, when a unit's `INVOCATION_ID` is set on a booted systemd.
  public static func isConnectedToJournal(environment: [String: String]) -> Bool {
    if let stream = environment["JOURNAL_STREAM"] {
      let parts = stream.split(separator: ":")
      var status = stat()
      if parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &status) == 0,
        UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode
      {
        return true
      }
    }
    return environment["INVOCATION_ID"] != nil && sd_booted() > 0
  }
}
