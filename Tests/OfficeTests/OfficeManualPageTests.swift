import Foundation
import Office
import TestSupport
import Testing

/// dashpilot-officed(8) as the package installs it (scripts/man/build.py): clean for man's
/// warnings, and complete against the program: every key of config/officed.conf and every
/// command and option of its usage.
@Suite(.requiresPython3, .requiresGroff)
struct OfficeManualPageTests {
  @Test func thePageIsCleanAndComplete() throws {
    let directory = try TestPaths.temporaryDirectory("office-man")
    defer { try? FileManager.default.removeItem(at: directory) }
    let build = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [TestPaths.repositoryRoot.appendingPathComponent("scripts/man/build.py").path, directory.path])
    #expect(build.status == 0, "\(build.standardError)")
    let page = directory.appendingPathComponent("dashpilot-officed.8")
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    environment["MANWIDTH"] = "80"
    let rendered = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-E", "UTF-8", "-l", "-Tutf8", page.path],
      environment: environment, timeout: 30)
    #expect(rendered.status == 0)
    #expect(rendered.standardError == "")
    let text = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/man"), ["-l", page.path], environment: environment, timeout: 30
    ).standardOutput
    let words = text.replacing("‐\n", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for (section, keys) in OfficeConfiguration.sections {
      #expect(words.contains("[\(section)]"), "no [\(section)] on the page")
      for key in keys { #expect(words.contains("\(key)="), "no \(key)= on the page") }
    }
    for word in ["status", "report", "migrate", "--config", "--broker", "--database", "--workers", "--json"] {
      #expect(OfficeOptions.usage.contains(word) && words.contains(word), "\(word)")
    }
    for relation in [
      "vehicles", "shifts", "samples", "sessions", "stops", "jobs", "events", "ledger", "rejected",
      "stretches", "shift_distance", "holes", "live",
    ] {
      #expect(words.contains(relation), "the page does not name \(relation)")
    }
  }
}
