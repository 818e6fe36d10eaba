import FoundationEssentials

/// Reads the broker password from the file the config names, so the secret never sits in
/// the config itself. The first line is the password; a trailing newline is not part of it.
public enum UplinkCredentials {
  public static func password(fromFile path: String) throws(MQTTError) -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MQTTError(
        operation: "read \(UplinkConfiguration.Key.passwordFile.rawValue) \(path)", reason: "the file cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw MQTTError(
        operation: "read \(UplinkConfiguration.Key.passwordFile.rawValue) \(path)", reason: "the file is not UTF-8 text"
      )
    }
    let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let password = firstLine.hasSuffix("\r") ? String(firstLine.dropLast()) : String(firstLine)
    guard !password.isEmpty else {
      throw MQTTError(
        operation: "read \(UplinkConfiguration.Key.passwordFile.rawValue) \(path)", reason: "the first line is empty")
    }
    return password
  }
}
