#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

dp_curl_library dp_curl;
static pthread_once_t dp_curl_once = PTHREAD_ONCE_INIT;

static void dp_curl_load_once(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(dp_curl.error, sizeof dp_curl.error, "cannot load libcurl.so.4: %s", why ? why : "unknown error");
    return;
  }
#define DP_CURL_SYMBOL(field, name)                                                              \
  *(void **)(&dp_curl.field) = dlsym(library, name);                                            \
  if (dp_curl.field == NULL) {                                                                   \
    snprintf(dp_curl.error, sizeof dp_curl.error, "libcurl.so.4 has no %s", name);               \
    return;                                                                                      \
  }
  DP_CURL_SYMBOL(global_init, "curl_global_init")
  DP_CURL_SYMBOL(easy_init, "curl_easy_init")
  DP_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
  DP_CURL_SYMBOL(easy_perform, "curl_easy_perform")
  DP_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
  DP_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
  DP_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
  DP_CURL_SYMBOL(slist_append, "curl_slist_append")
  DP_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef DP_CURL_SYMBOL
  /* curl_global_init is not thread-safe; pthread_once runs it exactly once. */
  dp_curl.global_init_result = dp_curl.global_init(CURL_GLOBAL_ALL);
  if (dp_curl.global_init_result != CURLE_OK) {
    snprintf(dp_curl.error, sizeof dp_curl.error, "curl_global_init failed (%d)", (int)dp_curl.global_init_result);
  }
}

const char *dp_curl_load(void) {
  pthread_once(&dp_curl_once, dp_curl_load_once);
  return dp_curl.error[0] ? dp_curl.error : NULL;
}

