#include <gps.h>
/* The supported libgps API: Debian 12's gpsd 3.22 (API 11). Other majors change gps_data_t. */
#if GPSD_API_MAJOR_VERSION < 11 || GPSD_API_MAJOR_VERSION > 12
#error "DashPilot supports libgps API 11-12 (gpsd 3.22-3.25)"
#endif
