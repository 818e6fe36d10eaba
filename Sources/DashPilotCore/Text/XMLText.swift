/// Text inside an XML element or a quoted attribute, for what DashPilot writes as XML by
/// hand (GPX exports, the SVG report): the one place its five special characters are escaped.
public enum XMLText {
  private static let entities: [Character: String] = [
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
  ]

  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      if let entity = entities[character] { result += entity } else { result.append(character) }
    }
    return result
  }
}
