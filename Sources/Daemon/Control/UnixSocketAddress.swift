import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `sockaddr_un` for a filesystem path, shared by the listener and its stale-socket probe.
enum UnixSocketAddress {
  /// Calls `body` with the address of `path`; nil when the path does not fit.
  static func with<Result>(
    path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity, !bytes.contains(0) else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in bytes.enumerated() { buffer[index] = byte }
      buffer[bytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}
