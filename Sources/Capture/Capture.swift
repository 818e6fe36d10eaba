// The Capture module: see issue 5.
