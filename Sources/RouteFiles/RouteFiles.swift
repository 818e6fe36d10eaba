// The RouteFiles module: see issue 3.
