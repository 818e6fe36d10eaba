import DashPilotCore
import FoundationEssentials
import GPSD

// Private places (`PrivatePlaceGuard`): a fix inside one is withheld before it is judged,
// and the session ends where the place begins (`private_place`), so that the time there is
// a gap with that cause, never counted, never drawn; the first fix beyond the place's
// margin begins a new session.
extension CaptureService {
  mutating func withholdsInPrivatePlace(_ tpv: GPSDTPV, into events: inout [CaptureEvent]) -> Bool {
    guard !privatePlaces.places.isEmpty, tpv.hasPosition, let latitude = tpv.latitude, let longitude = tpv.longitude,
      privatePlaces.withholds(GeoCoordinate(latitude: latitude, longitude: longitude))
    else { return false }
    // The instant before lay outside: it is judged as the session's last.
    endSession(.privatePlace, into: &events)
    statistics.received += 1
    statistics.withheldInPrivatePlace += 1
    events.append(.withheldInPrivatePlace)
    return true
  }
}
