#ifndef DASHPILOT_CCURL_H
#define DASHPILOT_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

/* libcurl is loaded with dlopen on the first HTTP request, not linked: linking it maps
   libcurl and the TLS, Kerberos, LDAP and SSH libraries it depends on into the daemon at
   start, whose constructors cost about 4 MB of resident memory on a box that may never
   reroute. The headers still come from libcurl4-openssl-dev; the library is Debian's
   libcurl.so.4. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
   call: the typed wrappers below pass one argument of the type each option expects. */

typedef struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  CURLcode (*easy_perform)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  CURLcode global_init_result;
  char error[256];
} dp_curl_library;

/* The loaded library, filled once by dp_curl_load() (CurlLoader.c). */
extern dp_curl_library dp_curl;

/* NULL when libcurl is loaded and initialised; otherwise why not. Safe from any thread. */
const char *dp_curl_load(void);

/* The calls below are valid only after dp_curl_load() returned NULL. */
static inline CURL *dp_curl_easy_init(void) { return dp_curl.easy_init(); }
static inline void dp_curl_easy_cleanup(CURL *handle) { dp_curl.easy_cleanup(handle); }
static inline CURLcode dp_curl_easy_perform(CURL *handle) { return dp_curl.easy_perform(handle); }
static inline const char *dp_curl_easy_strerror(CURLcode code) { return dp_curl.easy_strerror(code); }
static inline struct curl_slist *dp_curl_slist_append(struct curl_slist *list, const char *text) {
  return dp_curl.slist_append(list, text);
}
static inline void dp_curl_slist_free_all(struct curl_slist *list) {
  if (dp_curl.slist_free_all) dp_curl.slist_free_all(list);
}

static inline CURLcode dp_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return dp_curl.easy_setopt(handle, option, value);
}

static inline CURLcode dp_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return dp_curl.easy_setopt(handle, option, value);
}

static inline CURLcode dp_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return dp_curl.easy_setopt(handle, option, value);
}

static inline CURLcode dp_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
  return dp_curl.easy_setopt(handle, option, value);
}

static inline CURLcode dp_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return dp_curl.easy_setopt(handle, option, value);
}

typedef size_t (*dp_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode dp_curl_setopt_write_callback(CURL *handle, dp_curl_write_callback callback) {
  return dp_curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode dp_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return dp_curl.easy_getinfo(handle, info, value);
}

static inline CURLcode dp_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
  return dp_curl.easy_getinfo(handle, info, value);
}

#endif
