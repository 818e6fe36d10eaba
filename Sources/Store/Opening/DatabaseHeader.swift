import Glibc

/// The first 100 bytes of a SQLite file, read with plain file I/O so that looking at a file
/// can never change it.
enum DatabaseHeader: Equatable {
  /// A file shorter than a header: SQLite treats a zero-length file as an empty database.
  case empty
  /// Bytes that do not start with SQLite's magic string.
  case notADatabase
  /// A database whose header says this `user_version`.
  case database(userVersion: Int32)

  static let magic = Array("SQLite format 3\u{0}".utf8)

  static func read(path: String) throws(StoreError) -> DatabaseHeader {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw .cannotWrite(
        SQLiteFailure(
          operation: "read the header of \(path)", resultCode: 14 /* SQLITE_CANTOPEN */,
          message: String(cString: strerror(errno))))
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 100)
    var filled = 0
    while filled < bytes.count {
      let n = bytes.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw .ioError(
          SQLiteFailure(
            operation: "read the header of \(path)", resultCode: 10 /* SQLITE_IOERR */,
            message: String(cString: strerror(errno))))
      }
      if n == 0 { break }
      filled += n
    }
    if filled == 0 { return .empty }
    guard filled == bytes.count, Array(bytes[0..<16]) == magic else { return .notADatabase }
    // user_version: a big-endian 32-bit integer at offset 60.
    let version = bytes[60..<64].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
    return .database(userVersion: Int32(bitPattern: version))
  }
}
