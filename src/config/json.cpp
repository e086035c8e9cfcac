#include "aicore/config/json.hpp"

#include "aicore/config/params.hpp"

namespace aicore::config {

nlohmann::json to_json(const Config& c) {
  Config copy = c;  // the table hands out mutable field addresses
  nlohmann::json j = nlohmann::json::object();
  j["name"] = c.name;
  for (const Param& p : params()) {
    std::string pointer = "/" + p.key;
    for (char& ch : pointer)
      if (ch == '.') ch = '/';
    std::visit([&](auto* v) { j[nlohmann::json::json_pointer(pointer)] = *v; }, p.field(copy));
  }
  return j;
}

void to_json(nlohmann::json& j, const Config& c) {
  j = to_json(c);
}

}  // namespace aicore::config
