import DashPilotCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real routing engine on loopback over the generated grid of streets, started by the
/// repository's scripts (`scripts/valhalla/start.sh`, `scripts/osrm/start.sh`), which install
/// the engine from PyPI when missing. Killed with SIGKILL when stopped or when the test
/// process exits (Valhalla ignores SIGTERM).
public final class RoutingEngineServer: @unchecked Sendable {
  public enum Engine: Sendable {
    case valhalla
    case osrm(profile: String)
  }

  public let engine: Engine
  public let port: Int
  public let directory: URL
  public let pid: pid_t
  /// The streets the engine routes over, as the generator wrote them.
  public let grid: RoadGrid

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  public struct StartError: Error, CustomStringConvertible {
    public var description: String
  }

  /// A real Valhalla (`valhalla_service CONFIG 2`) on a free port.
  public static func startValhalla() throws -> RoutingEngineServer { try start(.valhalla) }

  /// A real OSRM (`osrm-routed`) with OSRM's own `car` or `foot` profile on a free port.
  public static func startOSRM(profile: String) throws -> RoutingEngineServer { try start(.osrm(profile: profile)) }

  private static func start(_ engine: Engine) throws -> RoutingEngineServer {
    let port = try freeLoopbackPort()
    let directory = try TestPaths.temporaryDirectory("routing-engine")
    let arguments: [String]
    switch engine {
    case .valhalla: arguments = ["scripts/valhalla/start.sh", directory.path, String(port)]
    case .osrm(let profile): arguments = ["scripts/osrm/start.sh", directory.path, String(port), profile]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = arguments
    process.currentDirectoryURL = TestPaths.repositoryRoot
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0, let pid = pid_t(text.split(separator: "\n").last ?? "") else {
      throw StartError(
        description: "\(arguments[0]) failed (status \(process.terminationStatus)): "
          + String(decoding: complaint, as: UTF8.self))
    }
    RunningEngines.shared.add(pid)
    let grid = try JSONDecoder().decode(RoadGrid.self, from: Data(contentsOf: directory.appendingPathComponent("grid.json")))
    return RoutingEngineServer(engine: engine, port: port, directory: directory, pid: pid, grid: grid)
  }

  private init(engine: Engine, port: Int, directory: URL, pid: pid_t, grid: RoadGrid) {
    self.engine = engine
    self.port = port
    self.directory = directory
    self.pid = pid
    self.grid = grid
  }

  /// SIGKILL, then wait until the process is gone (up to 5 s), so a test that stops the
  /// engine really meets a closed port.
  public func kill() {
    RunningEngines.shared.remove(pid)
    _ = Glibc.kill(pid, SIGKILL)
    for _ in 0..<500 {
      if Glibc.kill(pid, 0) != 0 { break }
      // A zombie still answers kill(0); it is gone from the network already once its
      // sockets are closed, which SIGKILL does at once. Check the state to stop early.
      if let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        state.contains(") Z ")
      {
        break
      }
      usleep(10_000)
    }
  }

  public func stop() {
    kill()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  /// A port nothing listens on right now: bind to port 0 and read what the kernel chose.
  public static func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
        guard bind(descriptor, pointer, length) == 0 else { return -1 }
        return getsockname(descriptor, pointer, &length)
      }
    }
    guard bound == 0 else { throw StartError(description: "bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// Engines still running, killed when the test process exits however it exits normally.
private final class RunningEngines: @unchecked Sendable {
  static let shared: RunningEngines = {
    atexit { RunningEngines.shared.killAll() }
    return RunningEngines()
  }()

  private let lock = NSLock()
  private var pids: Set<pid_t> = []

  func add(_ pid: pid_t) { lock.withLock { _ = pids.insert(pid) } }
  func remove(_ pid: pid_t) { lock.withLock { _ = pids.remove(pid) } }

  func killAll() {
    let all = lock.withLock { pids }
    for pid in all { _ = Glibc.kill(pid, SIGKILL) }
  }
}

/// The generated road network (`scripts/valhalla/make_grid.py` writes it as grid.json).
public struct RoadGrid: Decodable, Sendable {
  public struct Street: Decodable, Sendable {
    public var name: String
    public var oneway: Bool
    public var points: [[Double]]
  }

  public var size: Int
  public var spacingMetres: Double
  /// `nodes[row][column]` as `[latitude, longitude]`; rows go north, columns east.
  public var nodes: [[[Double]]]
  public var streets: [Street]
  public var island: [[Double]]

  enum CodingKeys: String, CodingKey {
    case size, nodes, streets, island
    case spacingMetres = "spacing_m"
  }

  public func node(row: Int, column: Int) -> GeoCoordinate {
    let pair = nodes[row][column]
    return GeoCoordinate(latitude: pair[0], longitude: pair[1])
  }

  public var islandMidpoint: GeoCoordinate {
    GeoCoordinate(latitude: (island[0][0] + island[1][0]) / 2, longitude: island[0][1])
  }

  /// Metres from `point` to the nearest street of the grid (not the island), measured in a
  /// local flat projection, which at a kilometre's scale is exact to millimetres.
  public func distanceToNearestStreet(_ point: GeoCoordinate) -> Double {
    var best = Double.infinity
    let metresPerDegreeLatitude = GeographicDistance.earthRadius * .pi / 180
    let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(point.latitude * .pi / 180)
    func local(_ pair: [Double]) -> (Double, Double) {
      ((pair[1] - point.longitude) * metresPerDegreeLongitude, (pair[0] - point.latitude) * metresPerDegreeLatitude)
    }
    for street in streets {
      for (a, b) in zip(street.points, street.points.dropFirst()) {
        let (ax, ay) = local(a)
        let (bx, by) = local(b)
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / lengthSquared))
        let px = ax + t * dx
        let py = ay + t * dy
        best = min(best, (px * px + py * py).squareRoot())
      }
    }
    return best
  }
}
