import Daemon

#if canImport(Glibc)
  import Glibc
#endif

// dashpilotd: the components, started in this order and stopped in reverse. Guidance
// hears of every fix the recording component reads from gpsd; the uplink, when configured,
// queues what the recording component's store commits and publishes it to the broker, with
// the latest accepted sample as the car's position (a shift sent again names its stops by
// the recording component's places); the jobs hear the recording
// component's stops; retention deletes what [Store] KeepDays= and FreeSpaceFloor= say may go, through the
// recording component's store while its care of the file lets rows go.
exit(
  DaemonMain.run(arguments: Array(CommandLine.arguments.dropFirst())) { configuration in
    let recording = RecordingComponent(configuration: configuration, batchPolicy: configuration.batchPolicy)
    let guidance = GuidanceComponent(configuration: configuration)
    recording.addFixObserver(guidance)
    let jobs = JobsComponent(configuration: configuration)
    recording.addStoreOpenedHandler(jobs.storeOpened)
    recording.addStopObserver(jobs)
    let retention = RetentionComponent(configuration: configuration) { [weak recording] in
      recording?.deletionGate ?? .open
    }
    recording.addStoreOpenedHandler(retention.storeOpened)
    // The fleet uplink only with an [Uplink] section: otherwise no outbox, no connection.
    guard let section = configuration.uplink else { return [recording, guidance, jobs, retention] }
    let uplink = UplinkComponent(configuration: configuration, uplink: section)
    recording.addFixObserver(uplink)
    recording.addStoreOpenedHandler(uplink.storeOpened)
    uplink.places = { [weak recording] in recording?.currentPlaces ?? [] }
    return [recording, guidance, jobs, uplink, retention]
  })
