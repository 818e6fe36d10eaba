import CSQLite
import Foundation

/// SQLite's own unix VFS with one fault injected: while `failure` is set, every write (or
/// every fsync) of a file it opened fails as a dying disk's would. Everything else is the
/// real file system. Registered under its own name, so only connections that ask for it by
/// name (the I/O-error tests) go through it.
enum FailingVFS {
  enum Failure { case none, write, sync }

  static let name = "dashpilot-failing-io"
  /// SQLITE_IOERR_WRITE and SQLITE_IOERR_FSYNC.
  static let writeError: Int32 = 778
  static let syncError: Int32 = 1034

  nonisolated(unsafe) static var failure: Failure = .none
  /// Our copy of each file's methods, mapped back to the unix VFS's original.
  nonisolated(unsafe) private static var originals: [UnsafeRawPointer: UnsafePointer<sqlite3_io_methods>] = [:]
  nonisolated(unsafe) private static var copies: [UnsafeRawPointer: UnsafePointer<sqlite3_io_methods>] = [:]
  nonisolated(unsafe) private static var unix: UnsafeMutablePointer<sqlite3_vfs>?

  /// Registers the VFS once; true when it is available.
  static let registered: Bool = {
    guard let real = sqlite3_vfs_find(nil) else { return false }
    unix = real
    let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    vfs.initialize(to: real.pointee)
    vfs.pointee.zName = UnsafePointer(strdup(name))
    vfs.pointee.pNext = nil
    vfs.pointee.xOpen = { _, fileName, file, flags, outFlags in
      guard let unix = FailingVFS.unix, let open = unix.pointee.xOpen else { return SQLITE_ERROR }
      let rc = open(unix, fileName, file, flags, outFlags)
      if rc == SQLITE_OK, let file, let methods = file.pointee.pMethods {
        file.pointee.pMethods = FailingVFS.copy(of: methods)
      }
      return rc
    }
    return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
  }()

  private static func copy(of original: UnsafePointer<sqlite3_io_methods>) -> UnsafePointer<sqlite3_io_methods> {
    if let existing = copies[UnsafeRawPointer(original)] { return existing }
    let copy = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    copy.initialize(to: original.pointee)
    copy.pointee.xWrite = { file, buffer, amount, offset in
      if FailingVFS.failure == .write { return FailingVFS.writeError }
      guard let file, let write = FailingVFS.original(of: file)?.pointee.xWrite else { return FailingVFS.writeError }
      return write(file, buffer, amount, offset)
    }
    copy.pointee.xSync = { file, flags in
      if FailingVFS.failure == .sync { return FailingVFS.syncError }
      guard let file, let sync = FailingVFS.original(of: file)?.pointee.xSync else { return FailingVFS.syncError }
      return sync(file, flags)
    }
    let result = UnsafePointer(copy)
    copies[UnsafeRawPointer(original)] = result
    originals[UnsafeRawPointer(result)] = original
    return result
  }

  private static func original(of file: UnsafeMutablePointer<sqlite3_file>) -> UnsafePointer<sqlite3_io_methods>? {
    file.pointee.pMethods.flatMap { originals[UnsafeRawPointer($0)] }
  }
}
