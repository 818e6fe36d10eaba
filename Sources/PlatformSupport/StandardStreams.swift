#if canImport(Glibc)
  import Glibc
#endif

/// Writes to file descriptor 2 whole, retrying short writes (FileHandle.standardError
/// lives in Foundation, which no executable links).
public enum StandardError {
  public static func write(_ text: String) { StandardStreams.write(text, to: 2) }
}

/// Writes to file descriptor 1 whole, as `StandardError` writes to 2.
public enum StandardOutput {
  public static func write(_ text: String) { StandardStreams.write(text, to: 1) }
}

/// Reads file descriptor 0.
public enum StandardInput {
  /// Everything until the end of the stream (or a read error, which ends it too).
  public static func readToEnd() -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes.append(contentsOf: chunk[0..<count])
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        return bytes
      }
    }
  }
}

private enum StandardStreams {
  static func write(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
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
