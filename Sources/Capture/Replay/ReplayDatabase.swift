import FoundationEssentials
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary SQLite database a replay captures into: a private directory of its own
/// (`mkdtemp` under `$TMPDIR`, else `/tmp`), removed when the replay is done with it.
///
/// It is thrown away afterwards, so it is opened `.disposable` (`synchronous = OFF`): the same schema,
/// transactions and batches as the daemon's store, without an fsync per commit (a replayed
/// log commits about once a fix second, and a day's log would otherwise wait on the disk
/// for minutes). Durability is the only thing this changes.
final class ReplayDatabase {
  let directory: String
  let store: SampleStore

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init() throws {
    let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template =
      Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
      + Array("dashpilot-replay-XXXXXX".utf8CString)
    // mkdtemp fills in the template where it lies: the name is read from the array itself,
    // after the buffer lent to the call is given back (the pointer it returns is that
    // buffer's, valid only during the call).
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard made else {
      throw Failure(description: "cannot make a temporary directory under \(base): \(String(cString: strerror(errno)))")
    }
    directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do {
      store = try SampleStore(path: directory + "/replay.sqlite", durability: .disposable)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw Failure(description: "cannot open the replay's temporary database in \(directory): \(error)")
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }
}
