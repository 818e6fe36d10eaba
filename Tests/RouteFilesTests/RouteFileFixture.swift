import Foundation
import TestSupport

/// Writes test text to a real file named as the reader will see it, in a fresh directory.
struct RouteFileFixture {
  let directory: URL

  init() throws { directory = try TestPaths.temporaryDirectory("routefiles") }

  func write(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}
