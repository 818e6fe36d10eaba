import Foundation
import TestSupport
import Testing

/// scripts/completion/dashpilotctl in a real bash with Debian's bash-completion: the file is
/// put where the package installs it (DATADIR/bash-completion/completions/dashpilotctl) and
/// loaded by bash-completion's own loader, then completed with COMP_WORDS and COMP_CWORD set
/// as bash sets them, against the real dashpilotctl and, for shift numbers, a real daemon.
@Suite("bash completion for dashpilotctl", .requiresBashCompletion)
struct BashCompletionTests {
  /// A data directory holding the completion where the package puts it under /usr/share.
  final class DataDirectory {
    let url: URL
    init() throws {
      url = try TestPaths.temporaryDirectory("completion")
      let completions = url.appendingPathComponent("bash-completion/completions")
      try FileManager.default.createDirectory(at: completions, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: TestPaths.repositoryRoot.appendingPathComponent("scripts/completion/dashpilotctl"),
        to: completions.appendingPathComponent("dashpilotctl"))
    }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  /// What bash offers for the command line `words` (the last one is being completed), run
  /// in `directory`: COMPREPLY, one entry a line, sorted.
  static func complete(
    _ words: [String], in directory: URL? = nil, data: DataDirectory, environment extra: [String: String] = [:]
  ) throws -> [String] {
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let script = """
      set -u
      source /usr/share/bash-completion/bash_completion
      set +u
      # Loaded the way bash-completion loads it on the first <Tab>: by name, from the data dirs.
      __load_completion dashpilotctl || { echo "bash-completion did not find dashpilotctl" >&2; exit 3; }
      spec=$(complete -p dashpilotctl) || exit 4
      function=${spec#*-F }
      function=${function%% *}
      COMP_WORDS=(\(quoted))
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="${COMP_WORDS[*]}"
      COMP_POINT=${#COMP_LINE}
      COMPREPLY=()
      "$function" dashpilotctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_DIRS"] = data.url.path
    environment["BASH_COMPLETION_USER_DIR"] = data.url.appendingPathComponent("none").path
    // The dashpilotctl the completion asks is the one just built.
    environment["PATH"] = DaemonBinaries.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["DASHPILOT_SOCKET"] = nil
    environment.merge(extra) { $1 }
    let file = data.url.appendingPathComponent("complete-\(UUID().uuidString).sh")
    try script.write(to: file, atomically: true, encoding: .utf8)
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/bash"),
      ["--norc", "--noprofile", "-c", "cd \"$0\" && . \"$1\"", (directory ?? data.url).path, file.path],
      environment: environment, timeout: 20)
    guard outcome.status == 0 else {
      throw DaemonTestFailure("bash exited \(outcome.status): \(outcome.standardError)")
    }
    return outcome.standardOutput.split(separator: "\n").map(String.init).sorted()
  }

  static let commands = [
    "events", "export", "help", "import", "jobs", "navigate", "places", "replay", "report", "route", "shift", "shifts",
    "status",
  ]
  static let globalOptions = ["--help", "--json", "--socket", "--version"]

  @Test("commands, subcommands, options and option values")
  func commandsAndOptions() throws {
    let data = try DataDirectory()
    #expect(try Self.complete(["dashpilotctl", ""], data: data) == Self.commands)
    #expect(try Self.complete(["dashpilotctl", "sh"], data: data) == ["shift", "shifts"])
    #expect(try Self.complete(["dashpilotctl", "-"], data: data) == Self.globalOptions)
    #expect(
      try Self.complete(["dashpilotctl", "--json", "shift", ""], data: data) == ["end", "resend", "show", "start"])
    #expect(
      try Self.complete(["dashpilotctl", "shift", "resend", "3", "--"], data: data)
        == (["--since", "--until"] + Self.globalOptions).sorted())
    #expect(try Self.complete(["dashpilotctl", "jobs", ""], data: data) == ["assign", "cancel", "import"])
    #expect(try Self.complete(["dashpilotctl", "help", "jobs", ""], data: data) == ["assign", "cancel", "import"])
    #expect(
      try Self.complete(["dashpilotctl", "jobs", "assign", "A-1", "Flowers", "51.5,-0.1", "--"], data: data)
        == (["--note", "--radius", "--window"] + Self.globalOptions).sorted())
    #expect(try Self.complete(["dashpilotctl", "route", ""], data: data) == ["clear", "load"])
    #expect(try Self.complete(["dashpilotctl", "places", ""], data: data) == ["load"])
    #expect(try Self.complete(["dashpilotctl", "help", ""], data: data) == Self.commands)
    #expect(try Self.complete(["dashpilotctl", "help", "route", ""], data: data) == ["clear", "load"])
    #expect(
      try Self.complete(["dashpilotctl", "export", "3", "--"], data: data)
        == (["--format", "--output"] + Self.globalOptions).sorted())
    #expect(try Self.complete(["dashpilotctl", "export", "3", "--format", ""], data: data) == ["geojson", "gpx"])
    #expect(
      try Self.complete(["dashpilotctl", "report", "3", "--"], data: data)
        == (["--mode", "--output", "--route"] + Self.globalOptions).sorted())
    #expect(try Self.complete(["dashpilotctl", "report", "3", "-o", "x.svg", "--m"], data: data) == ["--mode"])
    #expect(
      try Self.complete(["dashpilotctl", "shifts", "--"], data: data)
        == (["--before", "--limit", "--since", "--until"] + Self.globalOptions).sorted())
    #expect(
      try Self.complete(["dashpilotctl", "navigate", "51.5,-0.1", "--mode", ""], data: data) == ["driving", "walking"])
    #expect(
      try Self.complete(["dashpilotctl", "replay", "drive.json", "--"], data: data)
        == ([
          "--end-after-stop", "--end-at-place", "--minimum-stop", "--mode", "--places", "--route", "--shifts",
          "--stops", "--units", "--window",
        ]
        + Self.globalOptions).sorted())
    #expect(try Self.complete(["dashpilotctl", "replay", "drive.json", "--units", "k"], data: data) == ["kilometres"])
    #expect(try Self.complete(["dashpilotctl", "replay", "drive.json", "--shifts", ""], data: data) == ["movement"])
    #expect(try Self.complete(["dashpilotctl", "status", "--"], data: data) == Self.globalOptions)
  }

  @Test("file names: route files for route load, GPX for import, jobs files for jobs import, anything for replay")
  func fileNames() throws {
    let data = try DataDirectory()
    let directory = try TestPaths.temporaryDirectory("completion-files")
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["morning.gpx", "depot.geojson", "loop.json", "notes.txt", "TRACK.GPX", "monday.csv"] {
      _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data())
    }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("routes"), withIntermediateDirectories: false)
    #expect(
      try Self.complete(["dashpilotctl", "route", "load", ""], in: directory, data: data)
        == ["TRACK.GPX", "depot.geojson", "loop.json", "morning.gpx", "routes"])
    #expect(
      try Self.complete(["dashpilotctl", "import", ""], in: directory, data: data) == [
        "TRACK.GPX", "morning.gpx", "routes",
      ])
    #expect(try Self.complete(["dashpilotctl", "import", "mo"], in: directory, data: data) == ["morning.gpx"])
    #expect(
      try Self.complete(["dashpilotctl", "jobs", "import", ""], in: directory, data: data)
        == ["depot.geojson", "loop.json", "monday.csv", "routes"])
    #expect(
      try Self.complete(["dashpilotctl", "replay", ""], in: directory, data: data)
        == ["TRACK.GPX", "depot.geojson", "loop.json", "monday.csv", "morning.gpx", "notes.txt", "routes"])
    #expect(
      try Self.complete(["dashpilotctl", "replay", "x.json", "--route", ""], in: directory, data: data)
        == ["TRACK.GPX", "depot.geojson", "loop.json", "morning.gpx", "routes"])
    // The option value is a name, not a command word.
    #expect(
      try Self.complete(["dashpilotctl", "route", "load", "--mode", "w"], in: directory, data: data) == ["walking"])
  }

  @Test("shift numbers come from the daemon's `shifts --json`, through the socket the line names")
  func shiftNumbersFromTheDaemon() throws {
    let data = try DataDirectory()
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    for _ in 0..<2 {
      #expect(try daemon.control(["shift", "start"]).status == 0)
      #expect(try daemon.control(["shift", "end"]).status == 0)
    }
    #expect(try daemon.control(["shift", "start"]).status == 0)
    for _ in 0..<9 {
      #expect(try daemon.control(["shift", "end"]).status == 0)
      #expect(try daemon.control(["shift", "start"]).status == 0)
    }
    // Shifts 1 to 12; 12 is open.
    let all = (1...12).map(String.init).sorted()
    let socket = daemon.socketPath
    #expect(try Self.complete(["dashpilotctl", "--socket", socket, "shift", "show", ""], data: data) == all)
    #expect(
      try Self.complete(["dashpilotctl", "--socket=\(socket)", "shift", "show", "1"], data: data) == [
        "1", "10", "11", "12",
      ])
    #expect(try Self.complete(["dashpilotctl", "--socket", socket, "export", ""], data: data) == all)
    // dashpilotctl's own default, DASHPILOT_SOCKET, when the line names none.
    #expect(
      try Self.complete(["dashpilotctl", "shift", "show", "2"], data: data, environment: ["DASHPILOT_SOCKET": socket])
        == ["2"])
    // Once an ID is there, options follow.
    #expect(
      try Self.complete(["dashpilotctl", "--socket", socket, "export", "3", "--f"], data: data) == ["--format"])
  }

  @Test("no shift numbers, and no wait, when no daemon answers")
  func noDaemon() throws {
    let data = try DataDirectory()
    let started = Date()
    let missing = data.url.appendingPathComponent("no-daemon.sock").path
    #expect(try Self.complete(["dashpilotctl", "--socket", missing, "shift", "show", ""], data: data) == [])
    #expect(Date().timeIntervalSince(started) < 5)
  }

  @Test("the package installs it where Debian's bash-completion looks (its completionsdir)")
  func installedWhereBashCompletionLooks() throws {
    let pkgConfig = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--variable=completionsdir", "bash-completion"])
    #expect(pkgConfig.status == 0)
    let directory = pkgConfig.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(directory == "/usr/share/bash-completion/completions")
    let build = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("scripts/deb/build.sh"), encoding: .utf8)
    #expect(build.contains("\"$root\(directory)/dashpilotctl\""))
  }
}
