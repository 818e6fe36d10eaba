import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG file read by a real XML parser, so a test that counts its elements also proves it
/// is well-formed: every element with its attributes and its text, in document order.
public struct SVGDocument {
  public struct Element: Sendable, Hashable {
    public var name: String
    public var attributes: [String: String]
    /// The text directly inside it (a `<text>`'s words).
    public var text: String
    /// The `class` attribute.
    public var className: String? { attributes["class"] }
  }

  public private(set) var elements: [Element] = []

  public struct Malformed: Error, CustomStringConvertible {
    public var description: String
  }

  public init(_ text: String) throws {
    let reader = Reader()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = reader
    guard parser.parse() else {
      throw Malformed(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
    }
    elements = reader.elements
  }

  /// The elements of class `name`.
  public func elements(ofClass name: String) -> [Element] { elements.filter { $0.className == name } }

  /// The root element's attributes.
  public var root: Element? { elements.first }

  /// The numbers of an SVG path's data ("M1 2L3 4" is [1, 2, 3, 4]), in order.
  public static func numbers(inPath data: String) -> [Double] {
    data.split(whereSeparator: { "MLZ ,".contains($0) }).compactMap { Double($0) }
  }

  final class Reader: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var open: [Int] = []

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      open.append(elements.count)
      elements.append(Element(name: elementName, attributes: attributes, text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      guard let index = open.last else { return }
      elements[index].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
      open.removeLast()
    }
  }
}
