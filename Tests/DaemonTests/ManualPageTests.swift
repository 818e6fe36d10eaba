import Daemon
import DashPilotCore
import Foundation
import TestSupport
import Testing
import Uplink

/// The manual pages as `make deb` renders them (scripts/man/build.py from docs/man/*.in and
/// config/dashpilot.conf): clean for groff and man, and complete against the programs
/// themselves, so a key, a command or an option added later cannot be left out.
@Suite("manual pages", .requiresPython3)
struct ManualPageTests {
  /// The three pages rendered into a fresh directory: name ("dashpilot.conf.5") to text.
  static func rendered() throws -> [String: String] {
    let directory = try TestPaths.temporaryDirectory("man")
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [TestPaths.repositoryRoot.appendingPathComponent("scripts/man/build.py").path, directory.path])
    guard outcome.status == 0 else { throw DaemonTestFailure("scripts/man/build.py: \(outcome.standardError)") }
    var pages: [String: String] = [:]
    for name in ["dashpilotd.8", "dashpilotctl.1", "dashpilot.conf.5"] {
      pages[name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
    return pages
  }

  /// A roff line as a reader sees its words: font changes dropped, `\-` a minus sign.
  static func plain(_ line: String) -> String {
    var text = line
    for escape in ["\\fB", "\\fI", "\\fR", "\\fP", "\\&"] { text = text.replacingOccurrences(of: escape, with: "") }
    text = text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
    if text.hasPrefix(".") {
      // A macro line: its arguments, quotes removed.
      text = text.split(separator: " ", maxSplits: 1).dropFirst().joined().replacingOccurrences(of: "\"", with: "")
    }
    return text
  }

  /// The page's parts under each `.SH` or `.SS` heading (the heading's plain text), in order.
  static func parts(_ page: String, macro: String) -> [(heading: String, body: String)] {
    var result: [(heading: String, body: String)] = []
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") {
        if line.hasPrefix(macro + " ") {
          result.append((plain(line), ""))
        } else if macro == ".SS", line.hasPrefix(".SH ") {
          result.append(("", ""))  // a new chapter ends the last subsection
        }
        if macro == ".SH" || line.hasPrefix(".SS ") { continue }
      }
      if !result.isEmpty { result[result.count - 1].body += plain(line) + "\n" }
    }
    return result.filter { !$0.heading.isEmpty }
  }

  static func section(_ page: String, _ heading: String) -> String {
    parts(page, macro: ".SH").first { $0.heading == heading }?.body ?? ""
  }

  /// The `--options` a help text names.
  static func options(in text: String) -> Set<String> {
    let regex = try! Regex("--[a-z][a-z-]*")
    return Set(text.matches(of: regex).map { String(text[$0.range]) })
  }

  @Test("every page renders without a warning: groff -ww and man -l", .requiresGroff)
  func cleanForGroffAndMan() throws {
    let directory = try TestPaths.temporaryDirectory("man-lint")
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, text) in try Self.rendered() {
      let path = directory.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let groff = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/groff"), ["-man", "-ww", "-z", path])
      #expect(groff.status == 0, "groff -ww -z \(name)")
      #expect(groff.standardError == "", "groff -ww -z \(name): \(groff.standardError)")
      var environment = ProcessInfo.processInfo.environment
      environment["MANWIDTH"] = "80"
      environment["LC_ALL"] = "C.UTF-8"
      let man = try ProcessRunner.run(
        URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-E", "UTF-8", "-l", "-Tutf8", path],
        environment: environment)
      #expect(man.status == 0, "man -l \(name)")
      #expect(man.standardError == "", "man --warnings -l \(name): \(man.standardError)")
      // grotty's bold is overstriking: a character, a backspace, the character again.
      let shown = man.standardOutput.replacing(try Regex(".\u{8}"), with: "")
      #expect(shown.contains("\nNAME\n"), "man -l \(name) rendered no NAME")
    }
  }

  @Test("each page carries the version dashpilotd --version prints, and the chapters a person looks for")
  func versionAndChapters() throws {
    let pages = try Self.rendered()
    for (name, text) in pages {
      let header = try #require(text.split(separator: "\n").first { $0.hasPrefix(".TH ") }, "\(name) has no .TH")
      #expect(header.contains("\"DashPilot \(DashPilotVersion.string)\""), "\(name): \(header)")
      let chapters = Self.parts(text, macro: ".SH").map(\.heading)
      #expect(Array(chapters.prefix(3)) == ["NAME", "SYNOPSIS", "DESCRIPTION"], "\(name): \(chapters)")
      for chapter in ["FILES", "EXAMPLES", "SEE ALSO"] {
        #expect(chapters.contains(chapter), "\(name) has no \(chapter)")
      }
    }
    #expect(Self.parts(pages["dashpilotd.8"]!, macro: ".SH").map(\.heading).contains("EXIT STATUS"))
    #expect(Self.parts(pages["dashpilotctl.1"]!, macro: ".SH").map(\.heading).contains("EXIT STATUS"))
  }

  @Test("dashpilot.conf(5) lists exactly the sections and keys dashpilotd accepts")
  func configurationPageMatchesTheDaemon() throws {
    let page = try #require(try Self.rendered()["dashpilot.conf.5"])
    // Each key is the tag of a .TP or .TQ entry under its section's subsection.
    var documented: [String: [String]] = [:]
    var section: String?
    var tagFollows = false
    for line in page.split(separator: "\n").map(String.init) {
      if line.hasPrefix(".SS ") {
        let heading = Self.plain(line)
        #expect(heading.hasPrefix("[") && heading.hasSuffix("]"), "a subsection \(heading)")
        section = String(heading.dropFirst().dropLast())
        documented[section!] = []
      } else if line.hasPrefix(".SH ") {
        section = nil
      } else if tagFollows, let section {
        let tag = Self.plain(line)
        let key = String(tag.prefix { $0 != "=" })
        #expect(tag.contains("=") && !key.isEmpty, "[\(section)] tag \(tag)")
        documented[section, default: []].append(key)
      }
      tagFollows = section != nil && (line == ".TP" || line == ".TQ")
    }
    #expect(Set(documented.keys) == Set(ConfigurationValidator.knownSections))
    for (section, keys) in ConfigurationValidator.knownKeys {
      #expect(documented[section] == keys.filter { documented[section]?.contains($0) == true }, "[\(section)] order")
      #expect(Set(documented[section] ?? []) == Set(keys), "[\(section)]")
    }
    // [Uplink] keys are the uplink's own reader's, spelt exactly (0.1.0's spellings, which
    // it still reads as deprecated aliases, are not keys to document).
    let uplink = documented[ConfigurationValidator.uplinkSection] ?? []
    #expect(Set(uplink) == UplinkConfiguration.sectionKeys)
    #expect(uplink.count == UplinkConfiguration.sectionKeys.count, "an [Uplink] key documented twice: \(uplink)")
  }

  /// `dashpilotctl help`'s command list: "status", "shift start", ...
  static func commands() throws -> [String] {
    let help = try ProcessRunner.run(try DaemonBinaries.url("dashpilotctl"), ["help"])
    #expect(help.status == 0)
    let lines = help.standardOutput.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex(of: "COMMANDS:"))
    // "  shift start   Start a shift: ...": the name ends where two spaces begin.
    return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { line in
      line.dropFirst(2).components(separatedBy: "  ").first
    }
  }

  @Test("dashpilotctl(1) has a subsection for every command dashpilotctl lists, naming every option of its help")
  func clientPageHasEveryCommand() throws {
    let page = try #require(try Self.rendered()["dashpilotctl.1"])
    let subsections = Self.parts(page, macro: ".SS")
    let commands = try Self.commands()
    #expect(commands.count >= 12, "dashpilotctl help lists \(commands)")
    let global: Set<String> = ["--json", "--socket", "--help", "--version"]
    let optionsChapter = Self.section(page, "OPTIONS")
    for option in global { #expect(optionsChapter.contains(option), "OPTIONS lacks \(option)") }
    let client = try DaemonBinaries.url("dashpilotctl")
    for command in commands {
      let part = subsections.first { $0.heading == command || $0.heading.hasPrefix(command + " ") }
      #expect(part != nil, "dashpilotctl(1) has no subsection for \(command)")
      let words = command.split(separator: " ").map(String.init)
      let help = try ProcessRunner.run(client, command == "replay" ? ["replay", "--help"] : ["help"] + words)
      #expect(help.status == 0, "dashpilotctl help \(command)")
      for option in Self.options(in: help.standardOutput).subtracting(global) {
        let text = (part?.heading ?? "") + "\n" + (part?.body ?? "")
        #expect(text.contains(option), "dashpilotctl(1) \(command) does not name \(option)")
      }
    }
    let exits = Self.section(page, "EXIT STATUS")
    for status in ["0", "1", "2", "3"] { #expect(exits.contains("\n\(status)\n") || exits.hasPrefix("\(status)\n")) }
  }

  @Test("dashpilotd(8) names every option dashpilotd --help gives, and its exit statuses")
  func daemonPageHasEveryOption() throws {
    let page = try #require(try Self.rendered()["dashpilotd.8"])
    let help = try ProcessRunner.run(try DaemonBinaries.url("dashpilotd"), ["--help"])
    #expect(help.status == 0)
    let options = Self.options(in: help.standardOutput)
    #expect(options.isSuperset(of: ["--config", "--database", "--socket", "--gpsd", "--version", "--help"]))
    let chapter = Self.section(page, "OPTIONS")
    for option in options { #expect(chapter.contains(option), "dashpilotd(8) OPTIONS lacks \(option)") }
    let exits = Self.section(page, "EXIT STATUS")
    for status in ["0", "1", "2", "78"] { #expect(exits.contains("\n\(status)\n") || exits.hasPrefix("\(status)\n")) }
  }
}

/// What `make deb` (scripts/deb/build.sh) relies on in the sources, checked by `make test`
/// so that a version bump or a unit change cannot wait for the system test to be noticed.
@Suite("the packaging's sources")
struct PackagingSourceTests {
  @Test("scripts/deb/changelog's newest entry is the version dashpilotd reports")
  func changelogHasTheVersion() throws {
    let changelog = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("scripts/deb/changelog"), encoding: .utf8)
    let first = try #require(changelog.split(separator: "\n").first)
    // The newest release the packages are built for (scripts/targets/targets.sh).
    #expect(first == "dashpilot (\(DashPilotVersion.string)) trixie; urgency=medium")
    let daemon = try ProcessRunner.run(try DaemonBinaries.url("dashpilotd"), ["--version"])
    #expect(daemon.standardOutput == "dashpilotd \(DashPilotVersion.string)\n")
  }

  @Test("the unit has the ExecStart line the package points at /usr/sbin, and names its manual pages")
  func unitAsThePackageNeedsIt() throws {
    let unit = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("systemd/dashpilotd.service"), encoding: .utf8)
    let lines = unit.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("ExecStart=") } == [
        "ExecStart=/usr/local/bin/dashpilotd --config /etc/dashpilot/dashpilot.conf"
      ])
    #expect(lines.contains("Documentation=man:dashpilotd(8) man:dashpilot.conf(5)"))
  }
}
