import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What a GPX file holds, as text, before any of it is judged: routes (`rte`/`rtept`) and
/// tracks (`trk`/`trkseg`/`trkpt`). Waypoints and extensions are ignored.
struct GPXDocument {
  struct Point {
    var latitude: String?
    var longitude: String?
    var elevation: String?
    var time: String?
    var hdop: String?
    var fix: String?
    var speed: String?
  }

  var routes: [[Point]] = []
  /// Each track is a list of segments.
  var tracks: [[[Point]]] = []

  static func parse(_ data: Data, file: String) throws(RouteFileError) -> GPXDocument {
    let delegate = Collector()
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.delegate = delegate
    let parsed = parser.parse()
    if let root = delegate.rootElement, root != "gpx" {
      throw RouteFileError(file: file, problem: .notGPX(rootElement: root))
    }
    // FoundationXML on Linux lets some malformed documents through (a mismatched or missing
    // end tag), so the collector checks the nesting itself.
    if let structureError = delegate.structureError {
      throw RouteFileError(file: file, problem: .notXML(structureError))
    }
    guard parsed, delegate.rootElement != nil else {
      throw RouteFileError(file: file, problem: .notXML(reason(parser)))
    }
    if let open = delegate.openElement {
      throw RouteFileError(file: file, problem: .notXML("the document ends inside <\(open)>"))
    }
    return delegate.document
  }

  /// The parser's complaint with its line. The codes are libxml2's, passed through as they
  /// are (their names differ between Foundation builds, so they are not translated).
  private static func reason(_ parser: XMLParser) -> String {
    guard let error = parser.parserError as NSError? else { return "the document is empty" }
    return "malformed near line \(max(parser.lineNumber, 1)), parser error \(error.code)"
  }

  /// SAX collector; lives only for one parse on the caller's thread.
  private final class Collector: NSObject, XMLParserDelegate {
    var document = GPXDocument()
    var rootElement: String?
    var structureError: String?
    private var path: [String] = []

    var openElement: String? { path.last }
    private var point: Point?
    private var text = ""

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
      if rootElement == nil {
        rootElement = elementName
        guard elementName == "gpx" else {
          parser.abortParsing()
          return
        }
      }
      let parent = path.last
      path.append(elementName)
      text = ""
      switch (parent, elementName) {
      case ("gpx", "rte"): document.routes.append([])
      case ("gpx", "trk"): document.tracks.append([])
      case ("trk", "trkseg"):
        if !document.tracks.isEmpty { document.tracks[document.tracks.count - 1].append([]) }
      case ("rte", "rtept"), ("trkseg", "trkpt"):
        point = Point(latitude: attributeDict["lat"], longitude: attributeDict["lon"])
      default: break
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?
    ) {
      guard path.last == elementName else {
        structureError = "</\(elementName)> closes <\(path.last ?? "nothing")>, line \(parser.lineNumber)"
        parser.abortParsing()
        return
      }
      path.removeLast()
      let parent = path.last
      let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
      switch (parent, elementName) {
      case ("rtept", "ele"), ("trkpt", "ele"): point?.elevation = value
      case ("rtept", "time"), ("trkpt", "time"): point?.time = value
      case ("rtept", "hdop"), ("trkpt", "hdop"): point?.hdop = value
      case ("trkpt", "fix"): point?.fix = value
      // GPX 1.0's speed (m/s); GPX 1.1 dropped it from the core schema.
      case ("trkpt", "speed"): point?.speed = value
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
      text = ""
    }
  }
}
