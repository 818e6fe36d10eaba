import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a places file the way a power cut cannot tear: the text goes to a new file beside
/// it, is synced, and is renamed over it (and the directory synced), so the path holds the
/// old file or the new one, whole, and the next start reads whichever it holds.
public enum PlacesFileWriter {
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
  }

  public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    let temporary = "\(path).new-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Failure(description: "cannot write \(temporary): \(reason())") }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let why = reason()
        close(descriptor)
        unlink(temporary)
        throw Failure(description: "cannot write \(temporary): \(why)")
      }
      written += count
    }
    guard fsync(descriptor) == 0, close(descriptor) == 0 else {
      let why = reason()
      unlink(temporary)
      throw Failure(description: "cannot write \(temporary): \(why)")
    }
    guard rename(temporary, path) == 0 else {
      let why = reason()
      unlink(temporary)
      throw Failure(description: "cannot replace \(path): \(why)")
    }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      _ = fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
