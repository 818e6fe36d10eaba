// The Guidance module: see issue 3.
