import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real PostgreSQL 15 with PostGIS for tests: `initdb` in a temporary folder and
/// `postgres` on 127.0.0.1, a free port and a socket folder of its own. PostgreSQL refuses
/// to run as root, so under root the folder is given to `nobody` and the server runs as
/// that user (`setpriv`, which execs: the process held is the postmaster itself, so a
/// signal reaches it). Stop and start it again to simulate a restart; it is stopped when
/// released, and `shared` at the end of the test process.
public final class PostgresServer: @unchecked Sendable {
  public static let binaries = "/usr/lib/postgresql/15/bin"
  public static let superuser = "postgres"

  public let directory: URL
  public let dataDirectory: URL
  public let socketDirectory: URL
  public let port: Int
  public var logFile: URL { directory.appendingPathComponent("postgres.log") }
  private let held = HeldProcess()
  private let settings: [String]

  /// `dataParent` puts the data folder somewhere else (a small tmpfs, to fill it);
  /// `settings` are extra `-c NAME=VALUE`s.
  public init(dataParent: URL? = nil, settings: [String: String] = [:]) throws {
    directory = try TestPaths.temporaryDirectory("postgres")
    dataDirectory = (dataParent ?? directory).appendingPathComponent("data")
    socketDirectory = directory.appendingPathComponent("socket")
    port = try FreePort.find()
    // fsync off: a test's server is thrown away; every commit still goes through the WAL.
    self.settings =
      ["listen_addresses=127.0.0.1", "fsync=off", "full_page_writes=off", "max_connections=200"]
      + settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true)
    for folder in [directory, socketDirectory, dataParent].compactMap({ $0 }) { try Self.giveToServerUser(folder) }
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: Self.asServerUser[0]),
      Array(Self.asServerUser.dropFirst()) + [
        "\(Self.binaries)/initdb", "-D", dataDirectory.path, "-A", "trust", "-U", Self.superuser, "-N", "-E", "UTF8",
        "--locale=C",
      ], timeout: 120)
    guard outcome.status == 0 else {
      throw TestProcessError("initdb exited \(outcome.status): \(outcome.standardError)")
    }
  }

  deinit { held.stop() }

  /// Starts the server and waits until it takes connections.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.asServerUser[0])
    process.arguments =
      Array(Self.asServerUser.dropFirst()) + [
        "\(Self.binaries)/postgres", "-D", dataDirectory.path, "-p", String(port), "-k", socketDirectory.path,
      ] + settings.flatMap { ["-c", $0] }
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    let log = try FileHandle(forWritingTo: logFile)
    log.seekToEndOfFile()
    process.standardOutput = log
    process.standardError = log
    try held.start(process)
    let deadline = Date() + 30
    while Date() < deadline {
      if (try? psql("SELECT 1", database: "postgres")) == "1" { return }
      guard process.isRunning else { break }
      usleep(50_000)
    }
    throw TestProcessError("postgres did not start on port \(port): \(self.log)")
  }

  /// A fast shutdown (SIGINT: clients are disconnected, the WAL is flushed), as
  /// `systemctl stop postgresql` does; waits for the postmaster to exit.
  public func stop() {
    guard let process = held.current else { return }
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    held.stop()
  }

  public var isRunning: Bool { held.current?.isRunning ?? false }

  public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

  /// A libpq connection string for `database` as the superuser, through the socket.
  public func conninfo(database: String) -> String {
    "host=\(socketDirectory.path) port=\(port) user=\(Self.superuser) dbname=\(database)"
  }

  /// Runs `sql` with psql (no .psqlrc, unaligned, tuples only, stop at the first error) and
  /// returns what it printed, trimmed.
  @discardableResult
  public func psql(_ sql: String, database: String) throws -> String {
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/psql"),
      ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", conninfo(database: database), "-c", sql], timeout: 120)
    guard outcome.status == 0 else {
      throw TestProcessError("psql exited \(outcome.status) for \(sql): \(outcome.standardError)")
    }
    return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A new database, a copy of `template` (a database already holding PostGIS is copied in
  /// a fraction of the time CREATE EXTENSION takes).
  public func createDatabase(_ name: String, template: String? = nil) throws {
    try psql("CREATE DATABASE \"\(name)\"" + (template.map { " TEMPLATE \"\($0)\"" } ?? ""), database: "postgres")
  }

  /// One server for the whole test process, with a template database holding PostGIS:
  /// `freshDatabase()` gives each test its own database. Stopped when the process exits.
  public static let shared: Result<PostgresServer, TestProcessError> = {
    do {
      let server = try PostgresServer()
      try server.start()
      try server.createDatabase(templateName)
      try server.psql("CREATE EXTENSION postgis", database: templateName)
      sharedForExit = server
      atexit { PostgresServer.sharedForExit?.stop() }
      return .success(server)
    } catch {
      return .failure(error as? TestProcessError ?? TestProcessError("\(error)"))
    }
  }()

  public static let templateName = "postgis_template"
  nonisolated(unsafe) private static var sharedForExit: PostgresServer?

  /// A new database in the shared server, with PostGIS, named for the test.
  public static func freshDatabase(_ label: String) throws -> (server: PostgresServer, database: String) {
    let server = try shared.get()
    let name = "\(label)_\(UUID().uuidString.prefix(8).lowercased())"
    try server.createDatabase(name, template: templateName)
    return (server, name)
  }

  /// The command prefix that runs a program as the server's user: `nobody` under root
  /// (`setpriv` execs, so the process is the program itself), nothing otherwise.
  static let asServerUser: [String] =
    getuid() == 0
    ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--reset-env"] : ["/usr/bin/env"]

  /// Under root, the folder becomes `nobody`'s, as initdb and postgres need.
  static func giveToServerUser(_ folder: URL) throws {
    guard getuid() == 0 else { return }
    guard let user = getpwnam("nobody") else { throw TestProcessError("no user nobody to run PostgreSQL as") }
    guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
      throw TestProcessError("chown nobody \(folder.path): \(String(cString: strerror(errno)))")
    }
  }
}
