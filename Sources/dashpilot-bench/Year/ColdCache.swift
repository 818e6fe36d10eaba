// A cold start without rebooting: the database's own pages are dropped from the page cache
// (fdatasync, then posix_fadvise POSIX_FADV_DONTNEED on the file, its -wal and its -shm).
// This is a per-file cold cache: the daemon's binary and libraries stay cached, as they
// would not on a box just switched on. DASHPILOT_BENCH_DROP_CACHES=1 also drops the
// whole page cache (`echo 3 > /proc/sys/vm/drop_caches`: root, and a kernel that allows it;
// it slows everything else on the machine for a while).
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

enum ColdCache {
  static var dropsWholeCache: Bool { ProcessInfo.processInfo.environment["DASHPILOT_BENCH_DROP_CACHES"] == "1" }

  /// Drops the cached pages of `database` and its companions; returns the fraction of the
  /// database file still resident afterwards (0 when the kernel did as asked).
  @discardableResult
  static func drop(database: String) -> Double {
    for suffix in ["", "-wal", "-shm"] {
      let fd = open(database + suffix, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { continue }
      _ = fdatasync(fd)
      _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
      close(fd)
    }
    if dropsWholeCache {
      sync()
      if (try? "3\n".write(toFile: "/proc/sys/vm/drop_caches", atomically: false, encoding: .utf8)) == nil {
        FileHandle.standardError.write(Data("year: the kernel refused /proc/sys/vm/drop_caches\n".utf8))
      }
    }
    return residentFraction(database)
  }

  /// The fraction of `path`'s pages in the page cache (mincore over a mapping of it).
  static func residentFraction(_ path: String) -> Double {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size > 0 else { return 0 }
    let length = Int(info.st_size)
    guard let map = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { return 0 }
    defer { munmap(map, length) }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    var vector = [UInt8](repeating: 0, count: (length + page - 1) / page)
    guard mincore(map, length, &vector) == 0 else { return 0 }
    return Double(vector.count { $0 & 1 != 0 }) / Double(vector.count)
  }
}
