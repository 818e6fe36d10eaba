import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's Chromium, headless, rendering a file to a PNG exactly as a person's browser
/// draws it: the real engine, at one device pixel per CSS pixel, on a white page.
public enum HeadlessChromium {
  /// The browser's path, nil when it is not installed.
  public static var path: String? { ExecutableSearch.find("chromium") }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Renders `file` into `png` with a window of `width` x `height` CSS pixels.
  public static func screenshot(of file: URL, width: Int, height: Int, to png: URL) throws {
    guard let path else { throw Failure(description: "chromium is not installed") }
    let profile = try TestPaths.temporaryDirectory("chromium-profile")
    defer { try? FileManager.default.removeItem(at: profile) }
    var arguments = [
      "--headless", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
      "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
      "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "--screenshot=\(png.path)",
    ]
    // Chromium's sandbox refuses to start as root; the tests may run as root in a container.
    if getuid() == 0 { arguments.append("--no-sandbox") }
    arguments.append(file.absoluteString)
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = profile.path
    let outcome = try ProcessRunner.run(URL(fileURLWithPath: path), arguments, environment: environment, timeout: 120)
    guard outcome.status == 0, FileManager.default.fileExists(atPath: png.path) else {
      throw Failure(description: "chromium exited \(outcome.status): \(outcome.standardError.suffix(2000))")
    }
  }
}
