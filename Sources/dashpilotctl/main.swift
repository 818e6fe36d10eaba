import DashPilotCLI

DashPilotCLI.main()
