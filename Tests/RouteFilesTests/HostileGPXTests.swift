import DashPilotCore
import Foundation
import RouteFiles
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// GPX from outside: a route a fleet command sends inline is read with this same reader
/// (in `dashpilot-route-reader`), so a text made to expand, to read a file or to reach the
/// network is refused at once, or read as the text it is, and nothing else is touched.
@Suite struct HostileGPXTests {
  static let route = #"<gpx><rte><rtept lat="1" lon="2"/><rtept lat="1.01" lon="2"/></rte></gpx>"#

  private func read(_ text: String) -> Result<[GeoCoordinate], RouteFileError> {
    Result { () throws(RouteFileError) in try RouteFile.readRoute(Data(text.utf8), format: .gpx, source: "fleet") }
  }

  @Test func billionLaughsIsRefusedAtItsFirstDeclaration() {
    var entities = #"<!ENTITY lol0 "lol">"#
    for level in 1...9 {
      entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
    }
    let text =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\(entities)]>\n"
      + #"<gpx><rte><rtept lat="1" lon="2"><name>&lol9;</name></rtept><rtept lat="1" lon="3"/></rte></gpx>"#
    #expect(read(text) == .failure(RouteFileError(file: "fleet", problem: .declaresEntity("lol0"))))
    #expect(
      RouteFileError(file: "fleet", problem: .declaresEntity("lol0")).description
        == "fleet: declares the entity \"lol0\" (<!ENTITY>); a route file is read without entities, "
        + "which could expand without bound or read other files")
  }

  @Test func anEntityNamingAFileIsRefusedBeforeItIsRead() throws {
    let directory = try TestPaths.temporaryDirectory("hostile-gpx")
    defer { try? FileManager.default.removeItem(at: directory) }
    let secret = directory.appendingPathComponent("secret.txt")
    try Data("51.5".utf8).write(to: secret)
    let text =
      "<!DOCTYPE gpx [<!ENTITY secret SYSTEM \"file://\(secret.path)\">]>"
      + #"<gpx><rte><rtept lat="&secret;" lon="2"/><rtept lat="1" lon="3"/></rte></gpx>"#
    #expect(read(text) == .failure(RouteFileError(file: "fleet", problem: .declaresEntity("secret"))))
  }

  @Test func nothingIsFetchedFromTheNetwork() throws {
    let listener = try LoopbackListener()
    let dtd = "http://127.0.0.1:\(listener.port)/gpx.dtd"
    // A parameter entity from the network is refused at its declaration...
    let parameter = "<!DOCTYPE gpx [<!ENTITY % remote SYSTEM \"\(dtd)\"> %remote;]>" + Self.route
    #expect(read(parameter) == .failure(RouteFileError(file: "fleet", problem: .declaresEntity("remote"))))
    // ...and an external DTD is never loaded: the route reads as the text it is.
    let external = "<!DOCTYPE gpx SYSTEM \"\(dtd)\">" + Self.route
    let coordinates = [GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: 1.01, longitude: 2)]
    #expect(read(external) == .success(coordinates))
    #expect(listener.connectionsWaiting() == 0)
  }

  @Test func nestingIsBoundedByTheLengthOfTheText() {
    let depth = 100_000
    let text = "<gpx>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</gpx>"
    #expect(
      read(text)
        == .failure(RouteFileError(file: "fleet", problem: .notXML("nested more than 256 elements deep near line 1"))))
  }

  @Test func anUndeclaredEntityIsMalformed() {
    let text = #"<gpx><rte><rtept lat="1" lon="2"/>&oops;<rtept lat="1" lon="3"/></rte></gpx>"#
    #expect(
      read(text) == .failure(RouteFileError(file: "fleet", problem: .notXML("malformed near line 1, parser error 26"))))
  }

  @Test func cdataIsText() throws {
    let text =
      #"<gpx><trk><trkseg><trkpt lat="1" lon="2"><time><![CDATA[2026-11-29T21:30:00Z]]></time></trkpt>"#
      + #"<trkpt lat="1" lon="3"><time> 2026-11-29T21:30:05Z </time></trkpt></trkseg></trk></gpx>"#
    let track = try GPXReader.track(from: Data(text.utf8), file: "cdata.gpx")
    #expect(track.segments.flatMap { $0 }.map(\.time.timeIntervalSince1970) == [1_795_987_800, 1_795_987_805])
  }

  /// The reader's refusal is the only thing the child writes: libxml2 says nothing on
  /// standard error, where the daemon reads the reader's words.
  @Test func theRouteReaderWritesOnlyItsRefusal() throws {
    let directory = try TestPaths.temporaryDirectory("hostile-gpx")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("input.gpx")
    try Data(#"<gpx><rte><rtept lat="1" lon="2">&oops;</rte></gpx>"#.utf8).write(to: input)
    let process = Process()
    process.executableURL = try DaemonBinaries.url("dashpilot-route-reader")
    process.arguments = ["gpx", "args.gpx"]
    process.standardInput = try FileHandle(forReadingFrom: input)
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let written = output.fileHandleForReading.readDataToEndOfFile()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(written.isEmpty)
    #expect(said == "args.gpx: is not XML (malformed near line 1, parser error 26)\n")
  }
}

/// A TCP socket listening on loopback that nothing is meant to reach: it accepts no
/// connection, and says how many are queued.
private final class LoopbackListener {
  let descriptor: Int32
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.descriptor = descriptor
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else {
      throw TestProcessError("cannot listen on loopback: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  /// Connections made to it and not yet accepted (the kernel completes them without us).
  func connectionsWaiting() -> Int {
    _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    var count = 0
    while case let connection = accept(descriptor, nil, nil), connection >= 0 {
      close(connection)
      count += 1
    }
    return count
  }

  deinit { close(descriptor) }
}
