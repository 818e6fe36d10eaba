#if canImport(Glibc)
  import Glibc
#endif

/// The master side of a new pseudo-terminal, the serial port a receiver stand-in writes
/// and a real gpsd reads. posix_openpt and friends are not in Swift's Glibc module;
/// /dev/ptmx and its two ioctls are what they do on Linux.
public enum PseudoTerminal {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Opens /dev/ptmx and unlocks it; returns the master descriptor and the slave's path.
  public static func openMaster() throws -> (master: Int32, devicePath: String) {
    // Close-on-exec: a gpsd started for another test must not hold this terminal open.
    let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard fd >= 0, ioctl(fd, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
      ioctl(fd, 0x8004_5430 /* TIOCGPTN */, &number) == 0
    else {
      let problem = errno
      if fd >= 0 { close(fd) }
      throw Failure(description: "cannot open a pseudo-terminal: errno \(problem)")
    }
    return (fd, "/dev/pts/\(number)")
  }
}
