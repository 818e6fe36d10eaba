#if canImport(Glibc)
  import Glibc
#endif

/// A detached POSIX thread running one closure, for the daemon's blocking C calls (libgps,
/// libmosquitto, libcurl), which must never run on the Swift concurrency pool. Foundation's
/// Thread does this too, but would link all of Foundation into the daemon.
public final class NativeThread: @unchecked Sendable {
  private let body: () -> Void
  /// Shown in `top -H` and the journal's thread fields; Linux keeps 15 bytes of it.
  public var name: String?

  public init(block: @escaping () -> Void) { self.body = block }

  /// Starts the thread; it ends when the closure returns. False when the system refused
  /// a new thread (out of memory or of its thread limit); nothing runs then.
  @discardableResult
  public func start() -> Bool {
    let box = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { raw in
        let running = Unmanaged<NativeThread>.fromOpaque(raw!).takeRetainedValue()
        if let name = running.name { NativeThread.nameCurrentThread(name) }
        running.body()
        return nil
      }, box)
    guard status == 0 else {
      Unmanaged<NativeThread>.fromOpaque(box).release()
      return false
    }
    pthread_detach(thread)
    return true
  }

  /// pthread_setname_np is hidden from Swift's Glibc module; writing the thread's comm
  /// file is what it does on Linux.
  static func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }
}
