// The Store module: see issue 4.
