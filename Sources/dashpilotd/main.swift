import Daemon
import Foundation

// dashpilotd: the components, started in this order and stopped in reverse. Guidance
// hears of every fix the recording component reads from gpsd.
exit(
  DaemonMain.run(arguments: Array(CommandLine.arguments.dropFirst())) { configuration in
    let recording = RecordingComponent(configuration: configuration)
    let guidance = GuidanceComponent(configuration: configuration)
    recording.addFixObserver(guidance)
    return [recording, guidance]
  })
