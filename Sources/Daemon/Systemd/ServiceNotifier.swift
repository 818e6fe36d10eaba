import CSystemd
import FoundationEssentials

/// The service manager's view of the daemon: READY, STATUS, WATCHDOG, STOPPING.
public protocol ServiceNotifier: Sendable {
  func notify(_ state: String)
  /// The watchdog interval systemd asked for, nil when there is none.
  var watchdogInterval: TimeInterval? { get }
}

extension ServiceNotifier {
  public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
  public func status(_ text: String) { notify("STATUS=\(text)") }
  public func watchdog() { notify("WATCHDOG=1") }
  public func stopping(status: String) { notify("STOPPING=1\nSTATUS=\(status)") }
}

/// sd_notify through libsystemd. Without `NOTIFY_SOCKET` (run by hand) every call is a
/// no-op, which is libsystemd's own behaviour.
public struct SystemdNotifier: ServiceNotifier {
  public let watchdogInterval: TimeInterval?

  public init() {
    var microseconds: UInt64 = 0
    watchdogInterval = sd_watchdog_enabled(0, &microseconds) > 0 ? TimeInterval(microseconds) / 1_000_000 : nil
  }

  public func notify(_ state: String) {
    _ = sd_notify(0, state)
  }
}
