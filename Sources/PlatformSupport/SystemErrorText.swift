import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be read or written, in the system's own words (`strerror`: "No
/// such file or directory"), from the error FoundationEssentials throws; its errors have no
/// `localizedDescription`, which lives in Foundation.
public enum SystemErrorText {
  public static func reason(_ error: Error) -> String {
    let posix =
      error as? POSIXError ?? (error as? CocoaError).flatMap { $0.userInfo["NSUnderlyingError"] as? POSIXError }
    guard let posix else { return "\(error)" }
    return String(cString: strerror(posix.code.rawValue))
  }
}
