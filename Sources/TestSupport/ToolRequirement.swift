import Foundation

/// Programs a test needs that a machine may lack (groff, bash-completion, lintian...).
/// Under CI (`CI=true`) a missing one is a failure: the test runs and `check` throws,
/// naming it. Elsewhere the test is skipped with a comment that names it: use `satisfied`
/// in `.enabled(if:)`.
public struct ToolRequirement: Sendable {
  public let paths: [String]
  /// Where the missing program comes from, for the message.
  public let source: String

  public init(_ paths: String..., source: String = "scripts/deps/package.txt") {
    self.paths = paths
    self.source = source
  }

  public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  public var missing: [String] { paths.filter { !FileManager.default.fileExists(atPath: $0) } }

  /// Whether the test should run: everything is there, or CI must see it fail.
  public var satisfied: Bool { missing.isEmpty || Self.isCI }

  /// Throws, naming what is missing, when something is.
  public func check() throws {
    let missing = missing
    guard missing.isEmpty else {
      throw DaemonTestFailure("needs \(missing.joined(separator: ", ")) (\(source))")
    }
  }
}
