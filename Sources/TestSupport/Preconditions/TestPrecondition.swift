import Foundation

// The static release build `make bench` makes has no Testing module (the toolchain ships
// it only as a shared library); the bench uses the checks, never the traits.
#if canImport(Testing)
  import Testing
#endif

/// Something a test needs from the machine that it cannot make for itself: root, a tmpfs,
/// a Debian package, gpsd's regression logs. A test names what it needs with a trait
/// (`@Suite(.requiresGPSDLogs)`, see `Trait+Preconditions.swift`); the check runs once per
/// test process.
///
/// Outside CI an unmet precondition skips the test visibly, with one line saying what is
/// missing and how to get it. Under CI (`CI=true` in the environment) it fails the test with
/// that line instead: a CI machine that lost a package or the logs must never pass by
/// skipping what it was meant to run.
public struct TestPrecondition: Sendable {
  /// What is missing and how to get it, one line ("needs root: run the tests as root");
  /// nil when the machine has it.
  public let unmet: String?

  public init(unmet: String?) { self.unmet = unmet }

  public var isMet: Bool { unmet == nil }

  /// Whether this run is CI's, where an unmet precondition is a failure.
  public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  public struct Unmet: Error, CustomStringConvertible {
    public var description: String
  }

  #if canImport(Testing)
    /// The trait a test or suite carries: enabled when met; else skipped, or failed under CI.
    public var trait: ConditionTrait {
      guard let unmet else { return .enabled(if: true) }
      guard Self.isCI else { return .enabled(if: false, Comment(rawValue: unmet)) }
      return .enabled(Comment(rawValue: unmet)) {
        throw Unmet(description: "CI=true, so a missing precondition fails the test: \(unmet)")
      }
    }
  #endif
}
