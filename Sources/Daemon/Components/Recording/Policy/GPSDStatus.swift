import ControlProtocol
import DashPilotCore
import FoundationEssentials
import GPSD

/// What status says about gpsd, kept up to date from the source's events whether or not a
/// shift is open (a driver checks the receiver before starting one).
struct GPSDStatus {
  var connected = false
  var device: String?
  var fixMode: FixCandidate.Mode?
  var accuracyMetres: Double?
  /// The latest fix's own time (the receiver's clock).
  var lastFixAt: Date?

  /// Notes one event; returns what changed about the connection, for the journal.
  mutating func note(_ event: GPSDSourceEvent) -> ConnectionChange? {
    switch event {
    case .connected:
      let wasConnected = connected
      connected = true
      return wasConnected ? nil : .connected
    case let .disconnected(reason):
      let wasConnected = connected
      connected = false
      device = nil
      fixMode = nil
      accuracyMetres = nil
      return wasConnected ? .disconnected(reason) : .stillUnreachable(reason)
    case .retrying:
      return nil
    case let .report(report, _):
      switch report {
      case let .version(version):
        device = nil
        return .version(version.release)
      case let .device(info):
        if info.activated == false {
          if info.path == nil || info.path == device {
            device = nil
            fixMode = nil
            accuracyMetres = nil
          }
          return .deviceRemoved(info.path)
        }
        if let path = info.path, path != device {
          device = path
          return .deviceActive(path)
        }
      case let .tpv(tpv):
        if let path = tpv.device { device = path }
        fixMode = tpv.mode
        if tpv.hasPosition {
          accuracyMetres = tpv.candidate(age: nil).horizontalAccuracy
          lastFixAt = tpv.time
        } else {
          accuracyMetres = nil
        }
      case .error, .other:
        break
      }
      return nil
    }
  }

  func section(address: String) -> GPSDSection {
    GPSDSection(
      address: address, connected: connected, device: device, fixMode: fixMode.map(Self.name(of:)),
      accuracyMetres: accuracyMetres.map { ($0 * 10).rounded() / 10 }, lastFixAt: lastFixAt)
  }

  static func name(of mode: FixCandidate.Mode) -> String {
    switch mode {
    case .unknown, .noFix: "none"
    case .twoDimensional: "2d"
    case .threeDimensional: "3d"
    }
  }

  /// A change worth one journal line.
  enum ConnectionChange: Equatable {
    case connected
    case disconnected(String)
    /// A connection attempt failed again while already disconnected: logged once only.
    case stillUnreachable(String)
    case version(String)
    case deviceActive(String)
    case deviceRemoved(String?)
  }
}
