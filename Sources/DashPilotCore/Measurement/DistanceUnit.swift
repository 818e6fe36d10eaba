import FoundationEssentials

/// The units a figure is shown in. Miles by default: DashPilot's drivers.
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
  case miles
  case kilometres

  /// Metres in one unit.
  public var metres: Double {
    switch self {
    case .miles: 1609.344
    case .kilometres: 1000
    }
  }

  public var symbol: String {
    switch self {
    case .miles: "mi"
    case .kilometres: "km"
    }
  }

  /// The unit spelled out, for the spoken form.
  public var spokenName: String {
    switch self {
    case .miles: "miles"
    case .kilometres: "kilometres"
    }
  }

  /// Parses the names a person writes in a config file or on the command line.
  public init?(name: String) {
    switch name.lowercased() {
    case "mi", "mile", "miles": self = .miles
    case "km", "kilometre", "kilometres", "kilometer", "kilometers": self = .kilometres
    default: return nil
    }
  }
}

/// The decimal and grouping separators of a locale, so a figure is formatted the same way
/// everywhere and locale lookups happen only where the reader is.
public struct NumberSeparators: Sendable, Hashable {
  public var decimal: String
  public var grouping: String

  public init(decimal: String, grouping: String) {
    self.decimal = decimal
    self.grouping = grouping
  }

  public static let posix = NumberSeparators(decimal: ".", grouping: ",")

  /// The separators `locale` names where Foundation's locale data is loaded (the tests);
  /// with FoundationEssentials alone, as in every DashPilot executable, every locale answers
  /// "." and ",", so an executable that wants a reader's separators takes them from the C
  /// library (`localeconv` after `setlocale(LC_NUMERIC, "")`), not from here.
  public init(locale: Locale) {
    self.init(decimal: locale.decimalSeparator ?? ".", grouping: locale.groupingSeparator ?? ",")
  }

  /// `value` rounded half away from zero to `fractionDigits` places, grouped in thousands;
  /// a dash for a value that has no figure (not finite, or beyond any distance).
  public func format(_ value: Double, fractionDigits: Int) -> String {
    FixedDecimal.text(value, digits: fractionDigits, decimal: decimal, grouping: grouping) ?? "–"
  }
}
