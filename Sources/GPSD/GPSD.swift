// The GPSD module: see issue 5.
