import DashPilotCLI

// The lead passes the RouteFiles readers and writers here once they exist:
// `DashPilotCLI.main(hooks: RouteFileHooks(readTrack: ..., readRoute: ..., writeExport: ...))`.
DashPilotCLI.main()
