import CLibXML2
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What reading XML hands its handler: elements by local name (namespaces processed: GPX
/// 1.0 and 1.1 differ only in theirs), their unprefixed attributes, and the text between
/// tags (character data and CDATA alike), in pieces.
protocol XMLEventHandler: AnyObject {
  /// False: read no further (the document is not one the handler reads).
  func startElement(_ name: String, attributes: XMLAttributes) -> Bool
  func endElement(_ name: String)
  func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// An element's unprefixed attributes, read when asked for (most elements' never are);
/// valid only while `startElement` runs.
struct XMLAttributes {
  /// libxml2's five pointers an attribute: local name, prefix, URI, value, end of value.
  fileprivate let fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  fileprivate let count: Int

  subscript(name: String) -> String? {
    guard let fields else { return nil }
    for index in 0..<count {
      let attribute = fields + index * 5
      guard attribute[1] == nil, let local = attribute[0], let start = attribute[3], let end = attribute[4],
        name.withCString({ strcmp(UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self), $0) == 0 })
      else { continue }
      return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
    }
    return nil
  }
}

/// Why a document was not read to its end.
enum XMLReadingFailure: Error, Hashable {
  /// Nothing but white space.
  case empty
  /// libxml2's first error: its code (`xmlParserErrors`) and the line it stood on.
  case malformed(code: Int32, line: Int32)
  /// The text ended inside this element, the innermost one open.
  case endsInside(String)
  /// An end tag that closes another element than the one open, at this line.
  case endTagMismatch(end: String, open: String, line: Int32)
  /// An entity its DTD declares, refused at the declaration.
  case declaresEntity(String)
  /// Elements nested deeper than `XMLEventReader.maximumDepth`, at this line.
  case nestedTooDeep(line: Int32)
  /// The handler asked to read no further.
  case stoppedByHandler
}

/// XML read with libxml2's SAX parser, set up for text from anywhere (a file a person
/// names, a route a fleet command sends inline). Only the text given is read: no external
/// DTD or entity is ever loaded (neither `XML_PARSE_DTDLOAD` nor `XML_PARSE_NOENT`, and
/// `XML_PARSE_NONET` besides); a DTD that declares any entity is refused at the
/// declaration, before anything can expand (billion laughs) or name a file; libxml2's
/// limits stay on (no `XML_PARSE_HUGE`: 256 levels of nesting, 10 MB of text in a node, a
/// name's length) and its recovery off, so the first error ends the reading. The text is
/// handed over as a stream (`xmlCreateIOParserCtxt`), not pushed: libxml2 2.9's push
/// parser refuses any document past 10 MB ("Huge input lookup"), which a day's track from
/// another logger can be. The work is bounded by the length of the text. Errors come back
/// to the caller, never to standard error.
enum XMLEventReader {
  /// libxml2's own limit (`xmlParserMaxDepth`), checked here first for plainer words; GPX
  /// needs 5.
  static let maximumDepth = 256

  static func read(_ data: Data, into handler: XMLEventHandler) -> XMLReadingFailure? {
    guard data.contains(where: { !isWhiteSpace($0) }) else { return .empty }
    _ = initialised
    let session = Session(handler: handler)
    var callbacks = makeCallbacks()
    return withExtendedLifetime(session) {
      data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> XMLReadingFailure? in
        session.text = raw
        let user = Unmanaged.passUnretained(session).toOpaque()
        let read: xmlInputReadCallback = { user, buffer, length in
          let session = Session.from(user)
          let count = min(Int(length), session.text.count - session.given)
          if count > 0, let buffer, let text = session.text.baseAddress {
            memcpy(buffer, text + session.given, count)
            session.given += count
          }
          return Int32(count)
        }
        guard
          let context = xmlCreateIOParserCtxt(&callbacks, user, read, nil, user, XML_CHAR_ENCODING_NONE)
        else { return .malformed(code: Int32(XML_ERR_NO_MEMORY.rawValue), line: 0) }
        defer { xmlFreeParserCtxt(context) }
        session.context = context
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        let status = xmlParseDocument(context)
        if let failure = session.failure { return failure }
        guard status == 0, context.pointee.wellFormed != 0 else {
          return session.firstError ?? .malformed(code: Int32(context.pointee.errNo), line: session.line)
        }
        return nil
      }
    }
  }

  private static func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// libxml2's global set-up, once per process before any reading (not safe to race).
  private static let initialised: Void = xmlInitParser()

  /// One reading's state, reached from libxml2's callbacks through their user pointer.
  private final class Session {
    let handler: XMLEventHandler
    var context: xmlParserCtxtPtr?
    var failure: XMLReadingFailure?
    var firstError: XMLReadingFailure?
    /// The text, and how much of it libxml2 has been given.
    var text = UnsafeRawBufferPointer(start: nil, count: 0)
    var given = 0
    /// The elements open now, innermost last.
    var openElements: [String] = []

    init(handler: XMLEventHandler) { self.handler = handler }

    func stop(_ reason: XMLReadingFailure) {
      if failure == nil { failure = reason }
      if let context { xmlStopParser(context) }
    }

    /// The line the parser stands on.
    var line: Int32 { context?.pointee.input?.pointee.line ?? 0 }

    static func from(_ user: UnsafeMutableRawPointer?) -> Session {
      Unmanaged<Session>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Notes libxml2's first error, in the words it deserves: an end tag closing another
    /// element, the text ending inside one (the error raised with all of it read), else
    /// libxml2's code.
    func note(_ error: xmlError) {
      guard firstError == nil else { return }
      if error.code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue), let open = error.str1, let end = error.str2 {
        firstError = .endTagMismatch(end: String(cString: end), open: String(cString: open), line: error.line)
      } else if given == text.count, let open = openElements.last, let input = context?.pointee.input,
        input.pointee.cur == input.pointee.end
      {
        firstError = .endsInside(open)
      } else {
        firstError = .malformed(code: error.code, line: error.line)
      }
    }
  }

  private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
    text.map { String(cString: $0) } ?? ""
  }

  /// The handlers, SAX2 (namespace-aware); everything not set is ignored.
  private static func makeCallbacks() -> xmlSAXHandler {
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = { user, localName, _, _, _, _, attributeCount, _, attributes in
      let session = Session.from(user)
      let name = XMLEventReader.string(localName)
      session.openElements.append(name)
      guard session.openElements.count <= XMLEventReader.maximumDepth else {
        session.stop(.nestedTooDeep(line: session.line))
        return
      }
      let named = XMLAttributes(fields: attributes, count: Int(attributeCount))
      if !session.handler.startElement(name, attributes: named) { session.stop(.stoppedByHandler) }
    }
    sax.endElementNs = { user, localName, _, _ in
      let session = Session.from(user)
      session.openElements.removeLast()
      session.handler.endElement(XMLEventReader.string(localName))
    }
    let text: charactersSAXFunc = { user, bytes, count in
      guard let bytes, count > 0 else { return }
      Session.from(user).handler.text(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }
    sax.characters = text
    sax.cdataBlock = text
    sax.entityDecl = { user, name, _, _, _, _ in Session.from(user).stop(.declaresEntity(XMLEventReader.string(name))) }
    sax.unparsedEntityDecl = { user, name, _, _, _ in
      Session.from(user).stop(.declaresEntity(XMLEventReader.string(name)))
    }
    sax.serror = { user, error in
      guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
      Session.from(user).note(error.pointee)
    }
    return sax
  }
}
