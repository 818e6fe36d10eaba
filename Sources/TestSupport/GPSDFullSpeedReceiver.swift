import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A receiver on a pseudo-terminal that a real gpsd reads, written as fast as gpsd takes
/// the bytes: the terminal's buffer is the only pace, so nothing is dropped and an hour of
/// driving passes in seconds. `GPSDPseudoReceiver` paces lines like a real receiver; this
/// one is for measuring what the clients of gpsd cost per fix.
public final class GPSDFullSpeedReceiver: @unchecked Sendable {
  public let port: Int
  public let devicePath: String
  private let master: Int32
  private let gpsd: GPSDChildProcess

  /// Opens the terminal and starts `gpsd -N -n -b -S PORT DEVICE` on it.
  public init(timeout: Double = 10) throws {
    port = try FreePort.find()
    (master, devicePath) = try PseudoTerminal.openMaster()
    do {
      gpsd = try GPSDChildProcess.gpsd(port: port, [devicePath], outputPath: "/dev/null", timeout: timeout)
    } catch {
      close(master)
      throw error
    }
  }

  public var gpsdPID: pid_t { gpsd.pid }

  /// Writes every byte of `text`, blocking while the terminal is full; returns when the
  /// last byte is in the terminal (gpsd may still be reading it).
  public func write(_ text: String) throws {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        Glibc.write(master, buffer.baseAddress! + offset, min(4096, buffer.count - offset))
      }
      if written > 0 {
        offset += written
      } else if written < 0 && errno != EINTR && errno != EAGAIN {
        throw GPSDFake.Failure(description: "writing the terminal failed: errno \(errno)")
      }
    }
    bytes.removeAll()
  }

  /// Kills gpsd and closes the terminal.
  public func stop() {
    gpsd.killGroup()
    close(master)
  }
}
