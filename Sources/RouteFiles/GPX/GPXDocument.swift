import FoundationEssentials
import PlatformSupport

/// What a GPX file holds, as text, before any of it is judged: routes (`rte`/`rtept`),
/// tracks (`trk`/`trkseg`/`trkpt`) and waypoints (`wpt`). Extensions are ignored.
struct GPXDocument {
  struct Point {
    var latitude: String?
    var longitude: String?
    var elevation: String?
    var time: String?
    var hdop: String?
    var fix: String?
    var speed: String?
    /// A waypoint's `name` and `desc`.
    var name: String?
    var description: String?
  }

  var routes: [[Point]] = []
  /// Each track is a list of segments.
  var tracks: [[[Point]]] = []
  var waypoints: [Point] = []

  static func parse(_ data: Data, file: String) throws(RouteFileError) -> GPXDocument {
    let collector = Collector()
    let failure = XMLEventReader.read(data, into: collector)
    if let root = collector.rootElement, root != "gpx" {
      throw RouteFileError(file: file, problem: .notGPX(rootElement: root))
    }
    switch failure {
    case nil: return collector.document
    case .empty?: throw RouteFileError(file: file, problem: .notXML("the document is empty"))
    case .endsInside(let element)?:
      throw RouteFileError(file: file, problem: .notXML("the document ends inside <\(element)>"))
    case .endTagMismatch(let end, let open, let line)?:
      throw RouteFileError(file: file, problem: .notXML("</\(end)> closes <\(open)>, line \(line)"))
    // libxml2's codes, passed through as they are (xmlParserErrors: 4, no start tag).
    case .malformed(let code, let line)?:
      throw RouteFileError(file: file, problem: .notXML("malformed near line \(max(line, 1)), parser error \(code)"))
    case .declaresEntity(let name)?: throw RouteFileError(file: file, problem: .declaresEntity(name))
    case .nestedTooDeep(let line)?:
      let depth = XMLEventReader.maximumDepth
      throw RouteFileError(file: file, problem: .notXML("nested more than \(depth) elements deep near line \(line)"))
    case .stoppedByHandler?:
      throw RouteFileError(file: file, problem: .notGPX(rootElement: collector.rootElement ?? ""))
    }
  }

  /// Collects the document's routes and tracks; lives for one reading.
  private final class Collector: XMLEventHandler {
    var document = GPXDocument()
    var rootElement: String?
    private var path: [String] = []
    private var point: Point?
    /// The text of the element open now, kept only inside one whose text is read.
    private var text: [UInt8] = []
    private var readsText = false

    func startElement(_ name: String, attributes: XMLAttributes) -> Bool {
      if rootElement == nil {
        rootElement = name
        guard name == "gpx" else { return false }
      }
      let parent = path.last
      path.append(name)
      text.removeAll(keepingCapacity: true)
      readsText = Self.isField(name, of: parent)
      switch (parent, name) {
      case ("gpx", "rte"): document.routes.append([])
      case ("gpx", "trk"): document.tracks.append([])
      case ("trk", "trkseg"):
        if !document.tracks.isEmpty { document.tracks[document.tracks.count - 1].append([]) }
      case ("rte", "rtept"), ("trkseg", "trkpt"), ("gpx", "wpt"):
        point = Point(latitude: attributes["lat"], longitude: attributes["lon"])
      default: break
      }
      return true
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
      if readsText { text.append(contentsOf: bytes) }
    }

    func endElement(_ name: String) {
      path.removeLast()
      let parent = path.last
      let value = String(decoding: text, as: UTF8.self).trimmingWhiteSpaceAndNewlines
      switch (parent, name) {
      case ("rtept", "ele"), ("trkpt", "ele"): point?.elevation = value
      case ("rtept", "time"), ("trkpt", "time"), ("wpt", "time"): point?.time = value
      case ("wpt", "name"): point?.name = value
      case ("wpt", "desc"): point?.description = value
      case ("rtept", "hdop"), ("trkpt", "hdop"): point?.hdop = value
      case ("trkpt", "fix"): point?.fix = value
      // GPX 1.0's speed (m/s); GPX 1.1 dropped it from the core schema.
      case ("trkpt", "speed"): point?.speed = value
      case ("gpx", "wpt"):
        if let point { document.waypoints.append(point) }
        point = nil
      case ("rte", "rtept"):
        if let point, !document.routes.isEmpty { document.routes[document.routes.count - 1].append(point) }
        point = nil
      case ("trkseg", "trkpt"):
        if let point, let t = document.tracks.indices.last, let s = document.tracks[t].indices.last {
          document.tracks[t][s].append(point)
        }
        point = nil
      default: break
      }
      text.removeAll(keepingCapacity: true)
      readsText = path.last.map { Self.isField($0, of: path.dropLast().last) } ?? false
    }

    /// Whether the text of `name` inside `parent` is one of a point's values.
    private static func isField(_ name: String, of parent: String?) -> Bool {
      switch (parent, name) {
      case ("rtept", "ele"), ("trkpt", "ele"), ("rtept", "time"), ("trkpt", "time"), ("rtept", "hdop"),
        ("trkpt", "hdop"), ("trkpt", "fix"), ("trkpt", "speed"), ("wpt", "time"), ("wpt", "name"), ("wpt", "desc"):
        true
      default: false
      }
    }
  }
}
