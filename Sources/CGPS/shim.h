#include <gps.h>
/* libgps API 11 (gpsd 3.22, Debian 12) to 14 (gpsd 3.25, Debian 13), and later: DashPilot
 * calls gps_open, gps_stream, gps_close and gps_errstr and reads gps_data_t's gps_fd, which
 * these APIs share, and reads gpsd's JSON itself (GPSDJSONDecoder), so a change in how libgps
 * unpacks a report does not reach it. What the releases do differently is in what gpsd
 * reports: 3.25 reports each fix once per sentence of the receiver's cycle (capture judges
 * an instant once, FixInstant; guidance counts it once, GuidanceEngine) and dates a cycle's
 * error estimate with its own fix. The gpsd suites run against both releases' gpsd and
 * libgps (make test on Debian 12; scripts/targets/gpsd-test.sh in the Debian 13 build root).
 * API 10 and older (gpsd 3.21 and before) are not tested anywhere. */
#if GPSD_API_MAJOR_VERSION < 11
#error "DashPilot needs libgps API 11 or later (gpsd 3.22 or later)"
#endif
