/// The language the announcements are spoken in (a setting of the drive).
public enum AnnouncementLanguage: String, Sendable, Hashable, Codable, CaseIterable {
  case korean = "ko"
  case english = "en"
}

/// A line the session says aloud (the seed's wording), in the driver's language.
public struct Announcement: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Leaving the route is confirmed and a new route is being asked for.
    case leftRoute = "left_route"
    /// The provider gave no route; said once per departure however often it is retried.
    case routeNotFound = "route_not_found"
    /// A route to a named destination (a job) is followed: where the driver is going next.
    case heading
    /// Guidance arrived at the end of a route to a named destination.
    case arrived
  }

  public var kind: Kind
  /// The destination's name, for `heading` and `arrived`.
  public var subject: String?

  public init(_ kind: Kind, subject: String? = nil) {
    self.kind = kind
    self.subject = subject
  }

  public func text(for language: AnnouncementLanguage) -> String {
    let subject = subject ?? ""
    return switch (kind, language) {
    case (.leftRoute, .korean): "길을 벗어났어. 다시 찾아볼게"
    case (.leftRoute, .english): "You've left the route. Finding a new one."
    case (.routeNotFound, .korean): "길을 못 찾았어"
    case (.routeNotFound, .english): "Couldn't find a route."
    case (.heading, .korean): "다음은 \(subject)"
    case (.heading, .english): "Next: \(subject)."
    case (.arrived, .korean): "\(subject)에 도착했어"
    case (.arrived, .english): "You've arrived at \(subject)."
    }
  }
}
