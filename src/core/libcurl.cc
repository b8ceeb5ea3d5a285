#include "core/libcurl.h"

#include <dlfcn.h>

#include <mutex>

namespace kebab {
namespace {

template <typename Fn>
void Bind(void* lib, const char* name, Fn* fn, std::string* error) {
  *fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (*fn == nullptr && error->empty()) *error = std::string("no symbol ") + name;
}

}  // namespace

const CurlApi& LoadCurl() {
  static CurlApi curl;
  static std::once_flag once;
  // curl_global_init is not thread-safe, hence once.
  std::call_once(once, [] {
    void* lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      curl.load_error = dlerror();
      return;
    }
    std::string& e = curl.load_error;
    Bind(lib, "curl_global_init", &curl.global_init, &e);
    Bind(lib, "curl_easy_init", &curl.easy_init, &e);
    Bind(lib, "curl_easy_setopt", &curl.easy_setopt, &e);
    Bind(lib, "curl_easy_perform", &curl.easy_perform, &e);
    Bind(lib, "curl_easy_getinfo", &curl.easy_getinfo, &e);
    Bind(lib, "curl_easy_cleanup", &curl.easy_cleanup, &e);
    Bind(lib, "curl_easy_strerror", &curl.easy_strerror, &e);
    Bind(lib, "curl_slist_append", &curl.slist_append, &e);
    Bind(lib, "curl_slist_free_all", &curl.slist_free_all, &e);
    if (e.empty() && curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      e = "curl_global_init failed";
    }
  });
  return curl;
}

}  // namespace kebab
