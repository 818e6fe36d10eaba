import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why the control socket could not be set up; each says what to do.
public struct SocketSetupError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
}

/// The control socket, created so no other user ever sees it with looser permissions:
/// bound under umask 0117 (so it is born 0660, no chmod afterwards), its group set with
/// fchownat without following links, a stale socket from a crash replaced and a live one
/// (another daemon answering there) left alone with an error.
public final class ListeningSocket {
  public let fd: Int32
  public let path: String
  private let device: UInt64
  private let inode: UInt64

  public static func create(path: String, group: gid_t?, backlog: Int32 = 64) throws(SocketSetupError)
    -> ListeningSocket
  {
    try removeStaleSocket(at: path)
    let fd = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw SocketSetupError(description: "cannot create a Unix socket: \(String(cString: strerror(errno)))")
    }
    let previousMask = umask(0o117)
    let bound = UnixSocketAddress.with(path: path) { bind(fd, $0, $1) }
    let bindError = errno
    umask(previousMask)
    guard let bound else {
      Glibc.close(fd)
      throw SocketSetupError(description: "the socket path \(path) is longer than a Unix socket address allows")
    }
    guard bound == 0 else {
      Glibc.close(fd)
      let hint =
        bindError == ENOENT
        ? " (does its directory exist?)" : bindError == EACCES ? " (the daemon may not write to its directory)" : ""
      throw SocketSetupError(
        description: "cannot bind the control socket \(path): \(String(cString: strerror(bindError)))\(hint)")
    }
    var status = stat()
    guard lstat(path, &status) == 0 else {
      Glibc.close(fd)
      throw SocketSetupError(description: "the control socket \(path) vanished after bind")
    }
    if let group, status.st_gid != group {
      guard fchownat(AT_FDCWD, path, uid_t.max, group, AT_SYMLINK_NOFOLLOW) == 0 else {
        let error = errno
        unlink(path)
        Glibc.close(fd)
        throw SocketSetupError(
          description:
            "cannot give the control socket \(path) to group \(group): \(String(cString: strerror(error))); the daemon must run as root or be a member of that group"
        )
      }
    }
    guard listen(fd, backlog) == 0 else {
      let error = errno
      unlink(path)
      Glibc.close(fd)
      throw SocketSetupError(description: "cannot listen on \(path): \(String(cString: strerror(error)))")
    }
    return ListeningSocket(fd: fd, path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  private init(fd: Int32, path: String, device: UInt64, inode: UInt64) {
    self.fd = fd
    self.path = path
    self.device = device
    self.inode = inode
  }

  /// Replaces a socket nobody answers on; refuses a live one and anything not a socket.
  static func removeStaleSocket(at path: String) throws(SocketSetupError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    guard (status.st_mode & S_IFMT) == S_IFSOCK else {
      throw SocketSetupError(
        description: "\(path) exists and is not a socket; remove it or choose another --socket path")
    }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard probe >= 0 else {
      throw SocketSetupError(description: "cannot create a Unix socket: \(String(cString: strerror(errno)))")
    }
    defer { Glibc.close(probe) }
    let connected = UnixSocketAddress.with(path: path) { connect(probe, $0, $1) } ?? -1
    let error = errno
    if connected == 0 {
      throw SocketSetupError(
        description:
          "another dashpilotd is already answering on \(path); stop it first (sudo systemctl stop dashpilotd) or choose another --socket path"
      )
    }
    guard error == ECONNREFUSED else {
      throw SocketSetupError(description: "cannot tell whether \(path) is in use: \(String(cString: strerror(error)))")
    }
    guard unlink(path) == 0 || errno == ENOENT else {
      throw SocketSetupError(description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Closes the socket and removes its path, unless something else has replaced it.
  public func close() {
    var status = stat()
    if lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode {
      unlink(path)
    }
    Glibc.close(fd)
  }
}
