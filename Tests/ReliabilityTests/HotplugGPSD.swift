import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A real gpsd (`gpsd -N -n -b -F SOCKET -S PORT DEVICE`) with its control socket, which is
/// how udev's hotplug rule (`gpsdctl add|remove`) tells gpsd a receiver was plugged in or
/// pulled out: a removal makes gpsd report `DEVICE` with `activated` 0 to its clients.
final class HotplugGPSD: @unchecked Sendable {
  let port: Int
  let controlSocket: String
  private let process: GPSDChildProcess

  init(directory: URL, device: String) throws {
    port = try FreePort.find()
    controlSocket = directory.appendingPathComponent("gpsd.sock").path
    process = try GPSDChildProcess.gpsd(
      port: port, ["-F", controlSocket, device], outputPath: directory.appendingPathComponent("gpsd.log").path)
  }

  var isRunning: Bool { process.isRunning }

  /// `gpsdctl add PATH`.
  func add(_ path: String) throws { try control("+\(path)") }

  /// `gpsdctl remove PATH`.
  func remove(_ path: String) throws { try control("-\(path)") }

  /// One control command on a connection of its own; gpsd answers `OK` or `ERROR`.
  private func control(_ command: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw DaemonTestFailure("socket() failed: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in controlSocket.utf8.enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else { throw DaemonTestFailure("cannot connect to gpsd's \(controlSocket): errno \(errno)") }
    let line = Array((command + "\r\n").utf8)
    guard line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count else {
      throw DaemonTestFailure("cannot send \(command) to gpsd")
    }
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    var answer = [UInt8](repeating: 0, count: 64)
    guard poll(&descriptor, 1, 10_000) > 0 else { throw DaemonTestFailure("gpsd did not answer \(command)") }
    let count = recv(fd, &answer, answer.count, 0)
    let text = count > 0 ? String(decoding: answer[0..<count], as: UTF8.self) : ""
    guard text.hasPrefix("OK") else { throw DaemonTestFailure("gpsd answered \(command) with \(text)") }
  }

  func stop() { process.killGroup() }

  deinit { stop() }
}
