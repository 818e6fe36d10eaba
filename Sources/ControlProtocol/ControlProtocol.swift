// The ControlProtocol module: see issue 6.
