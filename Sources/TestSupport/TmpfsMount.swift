import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small tmpfs mounted on a temporary directory for one test: a real file system that
/// runs out of space, which a filler file then fills exactly (needs root). Unmount it in a
/// `defer` so a failing test leaves no mount behind.
public final class TmpfsMount: @unchecked Sendable {
  public let directory: URL
  public var path: String { directory.path }
  private var mounted = true

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Why this process cannot mount one (not root, or the kernel refuses a tmpfs here, as in
  /// a container without CAP_SYS_ADMIN); nil when it can. `.requiresTmpfs` reads this.
  public static let whyNotMountable: String? = {
    guard getuid() == 0 else { return "needs root to mount a tmpfs (uid \(getuid())): run the tests as root" }
    do {
      try TmpfsMount(kilobytes: 64).unmount()
      return nil
    } catch {
      return "cannot mount a tmpfs (\(error)): run the tests as root where mount(2) is allowed"
    }
  }()

  public init(kilobytes: Int) throws {
    directory = try TestPaths.temporaryDirectory("tmpfs")
    guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(kilobytes)k,mode=0755") == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: directory)
      throw Failure(description: "mount -t tmpfs -o size=\(kilobytes)k \(directory.path): \(reason)")
    }
  }

  /// Bytes still free on the file system (statvfs).
  public var freeBytes: Int {
    var info = statvfs()
    guard statvfs(path, &info) == 0 else { return -1 }
    return Int(info.f_bavail) * Int(info.f_frsize)
  }

  /// Fills every free block with `name` (dd from /dev/zero until the file system says
  /// ENOSPC) and returns the filler's size in bytes.
  @discardableResult
  public func fill(name: String = "filler") throws -> Int {
    let filler = directory.appendingPathComponent(name).path
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(filler)", "bs=4096", "oflag=append", "conv=notrunc"],
      timeout: 120)
    // dd stops at the first short write; "No space left on device" is the point of it.
    guard outcome.standardError.contains("No space left on device") else {
      throw Failure(description: "dd did not fill \(path): exit \(outcome.status): \(outcome.standardError)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: filler)[.size] as? Int) ?? nil
    return size ?? 0
  }

  /// Removes the filler, giving its space back.
  public func removeFiller(name: String = "filler") throws {
    try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
  }

  /// Unmounts (lazily, should a process still hold a file there) and removes the directory.
  /// Safe to call twice.
  public func unmount() {
    guard mounted else { return }
    mounted = false
    if umount2(path, 0) != 0 { _ = umount2(path, 2 /* MNT_DETACH */) }
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { unmount() }
}
