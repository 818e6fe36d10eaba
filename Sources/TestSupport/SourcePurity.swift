import Foundation

/// Sources that must stay pure (decide by what they are passed, do no I/O, read no clock),
/// searched as text for the calls that would break that: the one search behind the purity
/// tests of the core (DashPilotCore, Guidance) and of the daemon's policies.
public enum SourcePurity {
  /// Each `file: token` where a Swift file under `folder` (relative to the repository,
  /// subfolders included) contains a forbidden token, less the `allowed` ones, and how
  /// many files were read.
  public static func offences(
    in folder: String, forbidden: [String], allowed: Set<String> = []
  ) throws -> (files: Int, offences: [String]) {
    let root = TestPaths.repositoryRoot.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
      return (0, ["\(folder): cannot be read"])
    }
    let files = enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    var offences: [String] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for token in forbidden where text.contains(token) {
        let offence = "\(file.lastPathComponent): \(token)"
        if !allowed.contains(offence) { offences.append(offence) }
      }
    }
    return (files.count, offences.sorted())
  }
}
