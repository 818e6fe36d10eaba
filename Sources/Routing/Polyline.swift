import DashPilotCore

/// Google's encoded polyline, latitude first, at a given precision: Valhalla and OSRM
/// (`geometries=polyline6`) both send shapes at 6 decimal places.
public enum Polyline {
  /// nil when the text ends inside a number or holds a character outside the alphabet,
  /// or a coordinate lands off the Earth: a malformed shape is an unreadable answer.
  public static func decode(_ text: String, precision: Int = 6) -> [GeoCoordinate]? {
    var scale = 1.0
    for _ in 0..<precision { scale *= 10 }
    var coordinates: [GeoCoordinate] = []
    var latitude = 0
    var longitude = 0
    var iterator = text.utf8.makeIterator()

    func nextValue() -> Int?? {
      var result = 0
      var shift = 0
      var sawAny = false
      while let byte = iterator.next() {
        sawAny = true
        guard byte >= 63, byte <= 126, shift < 60 else { return .some(nil) }
        let chunk = Int(byte) - 63
        result |= (chunk & 0x1F) << shift
        shift += 5
        if chunk < 0x20 {
          return .some((result & 1) != 0 ? ~(result >> 1) : result >> 1)
        }
      }
      return sawAny ? .some(nil) : nil  // nil: clean end; .some(nil): broken
    }

    while true {
      guard let latitudeStep = nextValue() else { break }
      guard let latitudeDelta = latitudeStep, let longitudeStep = nextValue(), let longitudeDelta = longitudeStep else {
        return nil
      }
      latitude += latitudeDelta
      longitude += longitudeDelta
      let coordinate = GeoCoordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
      guard coordinate.isValid else { return nil }
      coordinates.append(coordinate)
    }
    return coordinates
  }

  /// The inverse, for tests and for anyone replaying a route to an engine.
  public static func encode(_ coordinates: [GeoCoordinate], precision: Int = 6) -> String {
    var scale = 1.0
    for _ in 0..<precision { scale *= 10 }
    var out: [UInt8] = []
    var previousLatitude = 0
    var previousLongitude = 0
    func append(_ value: Int) {
      var v = value < 0 ? ~(value << 1) : value << 1
      while v >= 0x20 {
        out.append(UInt8((0x20 | (v & 0x1F)) + 63))
        v >>= 5
      }
      out.append(UInt8(v + 63))
    }
    for coordinate in coordinates {
      let latitude = Int((coordinate.latitude * scale).rounded())
      let longitude = Int((coordinate.longitude * scale).rounded())
      append(latitude - previousLatitude)
      append(longitude - previousLongitude)
      previousLatitude = latitude
      previousLongitude = longitude
    }
    return String(decoding: out, as: UTF8.self)
  }
}
