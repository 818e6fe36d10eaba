import ControlProtocol
import Guidance

// The wire spells the travel modes as Guidance does; the protocol does not depend on it.

extension TravelMode {
  init(_ wire: WireTravelMode) {
    switch wire {
    case .driving: self = .driving
    case .walking: self = .walking
    }
  }
}

extension WireTravelMode {
  init(_ mode: TravelMode) {
    switch mode {
    case .driving: self = .driving
    case .walking: self = .walking
    }
  }
}
