import DashPilotCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a places file from disk for the daemon (start-up) and `replay --places`, one
/// reader with `PlacesFile`'s one set of errors: at most `maximumSize` bytes are read
/// whatever the file's size, because start-up must read a bounded amount from the card.
public enum PlacesFileReader {
  /// Where the daemon looks when `[Places] File=` does not say otherwise.
  public static let defaultPath = "/etc/dashpilot/places.geojson"

  /// 4 MiB: thousands of places with detailed boundaries; a file larger than that is not a
  /// list of yards and depots.
  public static let maximumSize = 4 * 1_048_576

  /// The places in `path`. A missing file is no places when `missingIsEmpty` (the default
  /// path: a box without places), and an error otherwise.
  public static func places(
    at path: String, missingIsEmpty: Bool = false, maximumSize: Int = maximumSize
  ) throws(PlacesFileError) -> [Place] {
    let bytes: [UInt8]
    do throws(PlacesFileError.Problem) {
      guard let read = try contents(of: path, limit: maximumSize) else {
        if missingIsEmpty { return [] }
        throw .missing
      }
      bytes = read
    } catch {
      throw PlacesFileError(file: path, problem: error)
    }
    return try PlacesFile.places(from: bytes, file: path)
  }

  /// The file's bytes, nil when there is no file at `path`.
  private static func contents(of path: String, limit: Int) throws(PlacesFileError.Problem) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw .unreadable(String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(String(cString: strerror(errno)))
      }
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
      if bytes.count > limit { throw .tooLarge(limit) }
    }
  }
}
