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
  }

  public var kind: Kind

  public init(_ kind: Kind) {
    self.kind = kind
  }

  public func text(for language: AnnouncementLanguage) -> String {
    switch (kind, language) {
    case (.leftRoute, .korean): "길을 벗어났어. 다시 찾아볼게"
    case (.leftRoute, .english): "You've left the route. Finding a new one."
    case (.routeNotFound, .korean): "길을 못 찾았어"
    case (.routeNotFound, .english): "Couldn't find a route."
    }
  }
}
