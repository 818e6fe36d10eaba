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

  public struct StartError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
  }

  /// A real Valhalla (`valhalla_service CONFIG 2`) on a free port.
  public static func startValhalla() throws -> RoutingEngineServer { try start(.valhalla) }

  /// A real OSRM (`osrm-routed`) with OSRM's own `car` or `foot` profile on a free port.
  public static func startOSRM(profile: String) throws -> RoutingEngineServer { try start(.osrm(profile: profile)) }

  private static func start(_ engine: Engine) throws -> RoutingEngineServer {
    // Below the ephemeral range and handed out once, as for gpsd: the script binds it only
    // after building the engine's tiles, long after a bind(0) port could have been taken.
    let port = try FreePort.find()
    let directory = try TestPaths.temporaryDirectory("routing-engine")
    let arguments: [String]
    switch engine {
    case .valhalla: arguments = ["scripts/valhalla/start.sh", directory.path, String(port)]
    case .osrm(let profile): arguments = ["scripts/osrm/start.sh", directory.path, String(port), profile]
    }
    // The script's output goes to files, never pipes: the engine it leaves running would
    // inherit a pipe's write end from a start on another thread and keep it open forever.
    // posix_spawn and waitpid rather than Foundation's Process, whose exit monitoring was
    // seen to miss the script's exit under parallel tests and wait forever.
    let outputURL = directory.appendingPathComponent("start.out")
    let errorURL = directory.appendingPathComponent("start.err")
    let script = TestPaths.repositoryRoot.appendingPathComponent(arguments[0]).path
    let status = try startLock.withLock {
      try spawnAndWait(["/bin/bash", script] + arguments.dropFirst(), stdout: outputURL.path, stderr: errorURL.path)
    }
    let text = ((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "").trimmingCharacters(
      in: .whitespacesAndNewlines)
    let complaint = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    guard status == 0, let pid = pid_t(text.split(separator: "\n").last ?? "") else {
      throw StartError(description: "\(arguments[0]) failed (status \(status)): \(complaint)")
    }
    RunningEngines.shared.add(pid, directory: directory)
    let grid = try JSONDecoder().decode(
      RoadGrid.self, from: Data(contentsOf: directory.appendingPathComponent("grid.json")))
    return RoutingEngineServer(engine: engine, port: port, directory: directory, pid: pid, grid: grid)
  }

  private init(engine: Engine, port: Int, directory: URL, pid: pid_t, grid: RoadGrid) {
    self.engine = engine
    self.port = port
    self.directory = directory
    self.pid = pid
    self.grid = grid
  }

  /// SIGKILL, then wait (up to 5 s) until the port refuses connections, so a test that stops
  /// the engine really meets a closed port. Waiting for the zombie is not enough: a
  /// multi-threaded process shows as a zombie while its other threads still hold its sockets.
  public func kill() {
    RunningEngines.shared.remove(pid)
    _ = Glibc.kill(pid, SIGKILL)
    for _ in 0..<500 {
      if !FreePort.canConnect(port: port) { return }
      usleep(10_000)
    }
  }

  public func stop() {
    kill()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

private let startLock = NSLock()

/// Runs a program to completion with stdin from /dev/null and stdout, stderr to files;
/// returns its exit status (128 + signal when killed).
private func spawnAndWait(_ arguments: [String], stdout: String, stderr: String) throws -> Int32 {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  let argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
  guard spawned == 0 else {
    throw RoutingEngineServer.StartError(
      description: "posix_spawn \(arguments[0]): \(String(cString: strerror(spawned)))")
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 {
    guard errno == EINTR else {
      throw RoutingEngineServer.StartError(description: "waitpid: \(String(cString: strerror(errno)))")
    }
  }
  let signal = status & 0x7f
  return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// Engines still running, killed (and their directories removed) when the test process
/// exits normally: the shared engines of a test run live as long as the process.
private final class RunningEngines: @unchecked Sendable {
  static let shared: RunningEngines = {
    atexit { RunningEngines.shared.killAll() }
    return RunningEngines()
  }()

  private let lock = NSLock()
  private var running: [pid_t: URL] = [:]

  func add(_ pid: pid_t, directory: URL) { lock.withLock { running[pid] = directory } }
  func remove(_ pid: pid_t) { lock.withLock { _ = running.removeValue(forKey: pid) } }

  func killAll() {
    let all = lock.withLock { running }
    for (pid, directory) in all {
      _ = Glibc.kill(pid, SIGKILL)
      try? FileManager.default.removeItem(at: directory)
    }
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
