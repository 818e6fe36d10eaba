import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the machine has: root, a mountable tmpfs, and the programs and libraries the tests
/// run (all from the Debian packages in scripts/deps/, which `make test` installs).
public enum MachinePreconditions {
  public static let root = TestPrecondition(
    unmet: getuid() == 0 ? nil : "needs root (uid \(getuid())): run the tests as root, such as sudo make test")

  public static let tmpfs = TestPrecondition(unmet: TmpfsMount.whyNotMountable)

  public static let faketime = TestPrecondition(
    unmet: LibFaketime.path == nil
      ? "needs libfaketime (no faketime/libfaketime.so.1 for this architecture): apt-get install libfaketime faketime"
      : nil)

  public static let cCompiler = TestPrecondition(
    unmet: CCompiler.path == nil ? "needs a C compiler (cc, gcc or clang): apt-get install gcc" : nil)

  public static let python3 = programs(["python3"], package: "python3")

  public static let gpsd = programs(["/usr/sbin/gpsd"], package: "gpsd")

  public static let gpsfake = programs(
    ["/usr/sbin/gpsd", "/usr/bin/gpsfake", "/usr/bin/gpspipe"], package: "gpsd gpsd-clients")

  public static let mosquitto = programs(
    [
      "/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_passwd",
      "/usr/bin/openssl",
    ],
    package: "mosquitto mosquitto-clients openssl")

  public static let espeak = programs(["espeak-ng"], package: "espeak-ng")

  /// PostgreSQL 15 with PostGIS 3, run by the tests themselves (`PostgresServer`), and
  /// setpriv to run it as nobody when the tests run as root.
  public static let postgis = files(
    [
      "\(PostgresServer.binaries)/initdb", "\(PostgresServer.binaries)/postgres", "/usr/bin/psql", "/usr/bin/setpriv",
      "/usr/share/postgresql/15/extension/postgis.control",
    ], package: "postgresql-15 postgresql-15-postgis-3 postgresql-client-15 util-linux")

  /// GDAL's ogrinfo and ogr2ogr, real clients of the office's views.
  public static let gdal = programs(["/usr/bin/ogrinfo", "/usr/bin/ogr2ogr"], package: "gdal-bin")

  public static let groff = programs(["/usr/bin/groff", "/usr/bin/man"], package: "groff man-db")

  /// Debian's Chromium, the real browser a report is rendered in.
  public static let chromium = programs(["chromium"], package: "chromium")

  public static let bashCompletion = files(
    ["/bin/bash", "/usr/share/bash-completion/bash_completion"], package: "bash bash-completion")

  /// Met when every program is there: an absolute path as the tests run it, a bare name
  /// anywhere on PATH.
  static func programs(_ names: [String], package: String) -> TestPrecondition {
    missing(names.filter { ExecutableSearch.find($0) == nil }, package: package)
  }

  /// Met when every file is there (a program, or a script that a program sources).
  static func files(_ paths: [String], package: String) -> TestPrecondition {
    missing(paths.filter { !FileManager.default.fileExists(atPath: $0) }, package: package)
  }

  private static func missing(_ missing: [String], package: String) -> TestPrecondition {
    guard !missing.isEmpty else { return TestPrecondition(unmet: nil) }
    return TestPrecondition(
      unmet: "needs \(missing.joined(separator: ", ")): apt-get install \(package) (make test installs scripts/deps/)")
  }
}

/// Programs by absolute path or by name on PATH.
public enum ExecutableSearch {
  public static func find(_ name: String) -> String? {
    if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// What `executable arguments` prints on standard output, trimmed; nil when it cannot
  /// run or fails.
  static func output(_ executable: String, _ arguments: [String]) -> String? {
    guard let path = find(executable),
      let outcome = try? ProcessRunner.run(URL(fileURLWithPath: path), arguments, timeout: 20), outcome.status == 0
    else { return nil }
    return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// libfaketime's preload library for this machine's architecture, asked of the system:
/// the file the Debian package installed, else the multiarch directory the C compiler
/// names (`/usr/lib/x86_64-linux-gnu`, `/usr/lib/aarch64-linux-gnu`, ...).
public enum LibFaketime {
  public static let path: String? = {
    let installed = ExecutableSearch.output("dpkg", ["-L", "libfaketime"])?.split(separator: "\n").map(String.init)
    if let library = installed?.first(where: { $0.hasSuffix("/faketime/libfaketime.so.1") }),
      FileManager.default.fileExists(atPath: library)
    {
      return library
    }
    for tool in [("gcc", ["-print-multiarch"]), ("dpkg-architecture", ["-qDEB_HOST_MULTIARCH"])] {
      guard let triple = ExecutableSearch.output(tool.0, tool.1), !triple.isEmpty else { continue }
      let library = "/usr/lib/\(triple)/faketime/libfaketime.so.1"
      if FileManager.default.fileExists(atPath: library) { return library }
    }
    return nil
  }()
}

/// The system C compiler, or the clang that comes with the Swift toolchain.
public enum CCompiler {
  public static let path: String? = ["cc", "gcc", "clang"].lazy.compactMap(ExecutableSearch.find).first
}
