import ConfigurationFile
import Daemon

/// A configuration file's text read as the daemon reads it (libinih, then the validator),
/// for the suites that check sections and their errors.
enum ConfigurationText {
  static func load(_ text: String) -> Result<DaemonConfiguration, ConfigurationError> {
    switch ConfigurationFileReader.parse(text: text, file: "test.conf") {
    case .failure(let error): return .failure(error)
    case .success(let entries):
      return ConfigurationValidator.apply(entries, to: DaemonConfiguration(), file: "test.conf")
    }
  }

  /// The error `text` gives, as the daemon prints it; nil when it loads.
  static func error(_ text: String) -> String? {
    if case .failure(let error) = load(text) { return error.description }
    return nil
  }
}
