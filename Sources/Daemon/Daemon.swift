// The Daemon module: see issue 6.
