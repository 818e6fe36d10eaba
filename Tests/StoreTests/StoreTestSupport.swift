import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// A store in a fresh temporary directory, removed when the test lets go of it.
final class TemporaryStoreFile {
  let directory: URL
  let path: String

  init(_ label: String = "store") throws {
    directory = try TestPaths.temporaryDirectory(label)
    path = directory.appendingPathComponent("dashpilot.sqlite").path
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func open(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws -> SampleStore {
    try SampleStore(path: path, now: now)
  }

  /// Names in the directory, sorted.
  func fileNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }
}

/// A short route: `count` positions 100 m apart, one a second, in session `session`.
func straightRoute(
  count: Int, session: CaptureSessionID? = CaptureSessionID("s1"),
  start: Date = Date(timeIntervalSince1970: 1_700_000_000)
) -> [RouteSample] {
  var builder = RouteBuilder(time: start, session: session)
  for _ in 1..<count { builder.drive(100) }
  return builder.samples
}

/// Seconds since 1970 as a Date.
func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

/// `samples` as the store reads them back.
func storedForm(_ samples: [RouteSample]) throws -> [RouteSample] {
  try samples.map { (sample) throws -> RouteSample in try SampleStore.storedForm(of: sample) }
}
