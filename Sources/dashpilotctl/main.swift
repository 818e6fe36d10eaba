import DashPilotCLI

// Route files (GPX, GeoJSON) are read and written here, on the client, with RouteFiles.
DashPilotCLI.main(hooks: .routeFiles)
