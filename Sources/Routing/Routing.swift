// The Routing module: see issue 7.
