import DashPilotCore
import Foundation
import Testing

/// Positions in metres east and north of a corner in Leeds, and places made of them.
private enum Ground {
  static let origin = GeoCoordinate(latitude: 53.8, longitude: -1.55)

  static func at(east: Double, north: Double) -> GeoCoordinate {
    let northward = GeographicDistance.destination(from: origin, bearing: 0, distance: north)
    return GeographicDistance.destination(from: northward, bearing: 90, distance: east)
  }

  /// A closed ring through the corners given, in metres.
  static func ring(_ corners: [(Double, Double)]) -> [GeoCoordinate] {
    let points = corners.map { at(east: $0.0, north: $0.1) }
    return points + [points[0]]
  }

  /// The yard: 100 m square from the origin, with a 20 m square hole (a building) at 40-60.
  static let yard = PlaceArea.polygons([
    [ring([(0, 0), (100, 0), (100, 100), (0, 100)]), ring([(40, 40), (60, 40), (60, 60), (40, 60)])]
  ])
}

@Suite struct PlaceAreaTests {
  @Test("a polygon: inside is negative, its depth to the nearest edge; a hole is outside")
  func polygonDistances() {
    #expect(abs(Ground.yard.signedDistance(to: Ground.at(east: 10, north: 50)) + 10) < 0.05)
    #expect(abs(Ground.yard.signedDistance(to: Ground.at(east: 130, north: 50)) - 30) < 0.05)
    #expect(abs(Ground.yard.signedDistance(to: Ground.at(east: 50, north: 50)) - 10) < 0.05)  // in the hole
    #expect(abs(Ground.yard.signedDistance(to: Ground.at(east: 30, north: 50)) + 10) < 0.05)  // beside it
    // Beyond a corner: the distance to the corner.
    #expect(abs(Ground.yard.signedDistance(to: Ground.at(east: 103, north: 104)) - 5) < 0.05)
    #expect(Ground.yard.contains(Ground.at(east: 1, north: 1)))
    #expect(!Ground.yard.contains(Ground.at(east: 50, north: 50)))
    // Outer ring less the hole.
    #expect(abs(Ground.yard.squareMetres - 9600) < 5)
  }

  @Test("a circle: the distance from its centre less the radius")
  func circleDistances() {
    let depot = PlaceArea.circle(centre: Ground.at(east: 0, north: 0), radius: 50)
    #expect(abs(depot.signedDistance(to: Ground.at(east: 30, north: 40)) - 0) < 0.01)
    #expect(abs(depot.signedDistance(to: Ground.at(east: 0, north: 80)) - 30) < 0.01)
    #expect(abs(depot.signedDistance(to: Ground.at(east: 0, north: 0)) + 50) < 0.01)
    #expect(abs(depot.squareMetres - 7853.98) < 0.01)
  }

  @Test("a multipolygon holds a point in any of its polygons")
  func multiPolygon() {
    let two = PlaceArea.polygons([
      [Ground.ring([(0, 0), (10, 0), (10, 10), (0, 10)])], [Ground.ring([(100, 0), (110, 0), (110, 10), (100, 10)])],
    ])
    #expect(two.contains(Ground.at(east: 5, north: 5)) && two.contains(Ground.at(east: 105, north: 5)))
    #expect(abs(two.signedDistance(to: Ground.at(east: 55, north: 5)) - 45) < 0.05)
  }

  @Test("a stop is named by the smallest place it lies in")
  func smallestPlaceNamesIt() {
    let estate = Place(name: "Estate", kind: .other, area: .circle(centre: Ground.at(east: 50, north: 50), radius: 500))
    let yard = Place(name: "Yard", kind: .customer, area: Ground.yard)
    let places = [estate, yard]
    #expect(places.place(containing: Ground.at(east: 10, north: 10))?.name == "Yard")
    #expect(places.place(containing: Ground.at(east: 50, north: 50))?.name == "Estate")  // the building
    #expect(places.place(containing: Ground.at(east: 900, north: 0)) == nil)
  }
}

@Suite struct PlacesFileTests {
  static let file = "/etc/dashpilot/places.geojson"

  func read(_ text: String) throws(PlacesFileError) -> [Place] {
    try PlacesFile.places(from: Array(text.utf8), file: Self.file)
  }

  /// The error `text` gets, as the person reading the journal sees it.
  func refusal(_ text: String) -> String? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error.description
    }
  }

  func collection(_ features: String...) -> String {
    "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
  }

  func feature(_ geometry: String, _ properties: String) -> String {
    "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\(properties)}}"
  }

  let point = "{\"type\":\"Point\",\"coordinates\":[-1.55,53.8]}"
  let square =
    "{\"type\":\"Polygon\",\"coordinates\":[[[-1.55,53.8],[-1.549,53.8],[-1.549,53.801],[-1.55,53.801],[-1.55,53.8]]]}"

  @Test("points with a radius and polygons, each with its name and kind; other properties ignored")
  func readsPlaces() throws {
    let places = try read(
      collection(
        feature(point, "\"name\":\"Depot\",\"kind\":\"depot\",\"radius_m\":80,\"colour\":\"red\""),
        feature(square, "\"name\":\"Home\",\"kind\":\"private\""),
        feature(
          "{\"type\":\"MultiPolygon\",\"coordinates\":[\(square.split(separator: ":", maxSplits: 2)[2].dropLast())]}",
          "\"name\":\"Two yards\",\"kind\":\"customer\"")))
    #expect(places.map(\.name) == ["Depot", "Home", "Two yards"])
    #expect(places.map(\.kind) == [.depot, .private, .customer])
    #expect(places[0].area == .circle(centre: GeoCoordinate(latitude: 53.8, longitude: -1.55), radius: 80))
    #expect(places[1].isPrivate && !places[0].isPrivate)
    #expect(places[1].area == places[2].area)
    #expect(try read(collection()).isEmpty)
  }

  @Test("each refusal names the file, the feature and what is wrong")
  func refusals() {
    let f = Self.file
    #expect(refusal("{\"type\":") != nil && refusal("{\"type\":")!.hasPrefix("\(f): is not JSON ("))
    #expect(
      refusal("{\"type\":\"Feature\"}")
        == "\(f): is not a GeoJSON FeatureCollection of places (its type is \"Feature\")")
    #expect(refusal("[]") == "\(f): is not a GeoJSON FeatureCollection of places (its type is missing)")
    #expect(refusal(collection("42")) == "\(f): feature 1: is not a GeoJSON Feature")
    #expect(
      refusal(collection(feature(point, "\"kind\":\"depot\",\"radius_m\":50")))
        == "\(f): feature 1: has no name (properties.name, a non-empty string)")
    #expect(
      refusal(
        collection(
          feature(point, "\"name\":\"Depot\",\"kind\":\"depot\",\"radius_m\":50"),
          feature(point, "\"name\":\"Depot\",\"kind\":\"depot\",\"radius_m\":60")))
        == "\(f): feature 2 (\"Depot\"): has a name an earlier feature has: each place's name is its own")
    #expect(
      refusal(collection(feature(point, "\"name\":\"Home\",\"radius_m\":50")))
        == "\(f): feature 1 (\"Home\"): has no kind (properties.kind: one of depot, customer, fuel, rest, private, other)"
    )
    #expect(
      refusal(collection(feature(point, "\"name\":\"Home\",\"kind\":\"privat\",\"radius_m\":50")))
        == "\(f): feature 1 (\"Home\"): has kind \"privat\", which is none of depot, customer, fuel, rest, private, other"
    )
    for radius in ["", ",\"radius_m\":0", ",\"radius_m\":\"50\"", ",\"radius_m\":20000"] {
      #expect(
        refusal(collection(feature(point, "\"name\":\"Depot\",\"kind\":\"depot\"\(radius)")))
          == "\(f): feature 1 (\"Depot\"): a Point needs properties.radius_m, the place's radius in metres "
          + "(more than 0, at most 10000)")
    }
    #expect(
      refusal(collection(feature(square, "\"name\":\"Yard\",\"kind\":\"customer\",\"radius_m\":5")))
        == "\(f): feature 1 (\"Yard\"): a polygon takes no radius_m: its boundary is the place")
    #expect(
      refusal(collection(feature("null", "\"name\":\"Yard\",\"kind\":\"customer\"")))
        == "\(f): feature 1 (\"Yard\"): has no geometry (a Point with radius_m, a Polygon or a MultiPolygon)")
    #expect(
      refusal(
        collection(feature("{\"type\":\"LineString\",\"coordinates\":[]}", "\"name\":\"Road\",\"kind\":\"other\"")))
        == "\(f): feature 1 (\"Road\"): has a LineString geometry; a place is a Point with radius_m, a Polygon or a MultiPolygon"
    )
    #expect(
      refusal(
        collection(
          feature(
            "{\"type\":\"Point\",\"coordinates\":[53.8,-191]}", "\"name\":\"X\",\"kind\":\"other\",\"radius_m\":5")))
        == "\(f): feature 1 (\"X\"): the Point is not [longitude, latitude] on Earth")
  }

  @Test("a polygon's rings: four positions at least, closed, enclosing something")
  func rings() {
    let f = Self.file
    let open = "{\"type\":\"Polygon\",\"coordinates\":[[[-1.55,53.8],[-1.549,53.8],[-1.549,53.801],[-1.55,53.801]]]}"
    #expect(
      refusal(collection(feature(open, "\"name\":\"Yard\",\"kind\":\"customer\"")))
        == "\(f): feature 1 (\"Yard\"): the Polygon is not closed (its last position must repeat its first)")
    let short = "{\"type\":\"Polygon\",\"coordinates\":[[[-1.55,53.8],[-1.549,53.8],[-1.55,53.8]]]}"
    #expect(
      refusal(collection(feature(short, "\"name\":\"Yard\",\"kind\":\"customer\"")))
        == "\(f): feature 1 (\"Yard\"): the Polygon has fewer than the four positions a closed ring needs")
    let flat = "{\"type\":\"Polygon\",\"coordinates\":[[[-1.55,53.8],[-1.549,53.8],[-1.548,53.8],[-1.55,53.8]]]}"
    #expect(
      refusal(collection(feature(flat, "\"name\":\"Yard\",\"kind\":\"customer\"")))
        == "\(f): feature 1 (\"Yard\"): the Polygon encloses no area")
    let badHole =
      "{\"type\":\"Polygon\",\"coordinates\":[[[-1.55,53.8],[-1.549,53.8],[-1.549,53.801],[-1.55,53.801],[-1.55,53.8]],"
      + "[[-1.5495,53.8005],[\"x\",53.8005],[-1.5494,53.8006],[-1.5495,53.8005]]]}"
    #expect(
      refusal(collection(feature(badHole, "\"name\":\"Yard\",\"kind\":\"customer\"")))
        == "\(f): feature 1 (\"Yard\"): position 2 of ring 2 of the Polygon is not [longitude, latitude] on Earth")
  }
}

@Suite struct PlaceTrackerTests {
  static let start = Date(timeIntervalSince1970: 1_772_442_000)
  let yard = Place(name: "Yard", kind: .customer, area: Ground.yard)

  /// Feeds one fix a second, `east` metres along the yard's middle (north 20), from `t`.
  func feed(_ tracker: inout PlaceTracker, _ eastings: [Double], from t: Double = 0, accuracy: Double = 5)
    -> [String]
  {
    var said: [String] = []
    for (index, east) in eastings.enumerated() {
      let time = Self.start.addingTimeInterval(t + Double(index))
      for event in tracker.update(Ground.at(east: east, north: 20), accuracy: accuracy, at: time) {
        switch event {
        case .entered(let place, let at): said.append("entered \(place.name) \(Int(at.timeIntervalSince(Self.start)))")
        case .left(let place, let at): said.append("left \(place.name) \(Int(at.timeIntervalSince(Self.start)))")
        }
      }
    }
    return said
  }

  @Test("driving in and out: entered at the first fix inside, left at the first fix beyond the margin")
  func inAndOut() {
    var tracker = PlaceTracker(places: [yard])
    // From 28 m west, 5 m a second, into the yard (inside from t=6, east 2), through it and
    // out the far side (beyond 100 + 20 from t=30, east 122).
    let path = (0..<50).map { -28 + 5 * Double($0) }
    #expect(feed(&tracker, path) == ["entered Yard 6", "left Yard 30"])
    #expect(tracker.inside.isEmpty)
  }

  @Test("a fix bouncing on the border never flaps: entering needs a streak, leaving needs the margin")
  func bouncingOnTheBorder() {
    var tracker = PlaceTracker(places: [yard])
    // Parked astride the west border: inside, outside, by a few metres in turn.
    #expect(feed(&tracker, (0..<120).map { $0 % 2 == 0 ? 3 : -3 }).isEmpty)
    // Parked just inside, wandering out by up to 15 m now and then: entered once, never left.
    var inside = PlaceTracker(places: [yard])
    let wander: [Double] = (0..<120).map { [2, 4, 3, -15, 5, 1, -8, 2][$0 % 8] }
    let said = feed(&inside, [5, 5, 5, 5, 5, 5] + wander)
    #expect(said == ["entered Yard 0"])
    #expect(inside.inside.map(\.name) == ["Yard"])
  }

  @Test("three fixes are not enough inside a second; a poor or stale fix says nothing")
  func countAndDuration() {
    var tracker = PlaceTracker(places: [yard])
    var said: [String] = []
    for (offset, accuracy) in [(0.0, 5.0), (0.3, 5), (0.6, 5), (1, 150), (2, 5), (6, 5)] {
      let time = Self.start.addingTimeInterval(offset)
      for event in tracker.update(Ground.at(east: 30, north: 20), accuracy: accuracy, at: time) {
        if case .entered(_, let at) = event { said.append("entered \(at.timeIntervalSince(Self.start))") }
      }
    }
    #expect(said == ["entered 0.0"])
    // A fix at or before the last one is no evidence (a receiver's repeated report).
    var repeated = PlaceTracker(places: [yard])
    for _ in 0..<10 { #expect(repeated.update(Ground.at(east: 30, north: 20), accuracy: 5, at: Self.start).isEmpty) }
  }

  @Test("leaving asks for fixes beyond their own error estimate when it is larger than the margin")
  func poorFixesLeaveLater() {
    var tracker = PlaceTracker(places: [yard])
    _ = feed(&tracker, [50, 50, 50, 50, 50, 50])
    // 35 m outside with a 40 m error estimate: no evidence of leaving.
    #expect(feed(&tracker, Array(repeating: 135, count: 20), from: 10, accuracy: 40).isEmpty)
    #expect(feed(&tracker, Array(repeating: 145, count: 10), from: 30, accuracy: 40) == ["left Yard 30"])
  }

  @Test("from one place into the next: the left event comes before the entered one")
  func adjacentPlaces() {
    let next = Place(
      name: "Next door", kind: .customer,
      area: .polygons([[Ground.ring([(100, 0), (300, 0), (300, 100), (100, 100)])]]))
    var tracker = PlaceTracker(places: [yard, next])
    #expect(feed(&tracker, [50, 50, 50, 50, 50, 50]) == ["entered Yard 0"])
    #expect(feed(&tracker, Array(repeating: 200, count: 10), from: 10) == ["left Yard 10", "entered Next door 10"])
  }
}

/// Private places: nothing inside is recorded, and leaving needs the margin, so a position
/// on the border never flaps.
@Suite struct PrivatePlaceGuardTests {
  static let centre = GeoCoordinate(latitude: 53.8, longitude: -1.5)
  static let metresPerDegree = GeographicDistance.earthRadius * Double.pi / 180

  static func north(_ metres: Double) -> GeoCoordinate {
    GeoCoordinate(latitude: centre.latitude + metres / metresPerDegree, longitude: centre.longitude)
  }

  static let home = Place(name: "Home", kind: .private, area: .circle(centre: centre, radius: 100))
  static let depot = Place(name: "Depot", kind: .depot, area: .circle(centre: north(1_000), radius: 100))

  @Test("a fix inside is withheld, and every one after until 20 m beyond the place")
  func insideThenMargin() {
    var guarding = PrivatePlaceGuard(places: [Self.home, Self.depot])
    #expect(guarding.places == [Self.home])
    let path: [(Double, Bool)] = [
      (150, false), (101, false), (99, true), (0, true), (105, true), (119.9, true), (120.1, false), (110, false),
      (99.5, true),
    ]
    for (metres, withheld) in path {
      #expect(guarding.withholds(Self.north(metres)) == withheld, "at \(metres) m")
    }
    // Only private places withhold: standing in the depot is recorded.
    #expect(guarding.withholds(Self.north(1_000)) == false)
  }
}
