import Guidance

extension AnnouncementLanguage {
  /// The guidance module's language for the configured one (the config spells it out, the
  /// wording is keyed by language code).
  var wording: Guidance.AnnouncementLanguage {
    switch self {
    case .english: .english
    case .korean: .korean
    }
  }
}
