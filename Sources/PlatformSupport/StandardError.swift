#if canImport(Glibc)
  import Glibc
#endif

/// Writes to file descriptor 2 whole, retrying short writes (FileHandle.standardError
/// lives in Foundation, which the daemon does not link).
public enum StandardError {
  public static func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}
