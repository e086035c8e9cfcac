#include "aicore/common/source_files.hpp"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace aicore {

namespace {
struct Table {
  std::mutex mu;
  std::deque<std::string> names{""};  // a deque: references stay valid as it grows
  std::unordered_map<std::string, FileId> ids{{"", 0}};
};
Table& table() {
  static Table t;
  return t;
}
}  // namespace

FileId intern_source_file(const std::string& name) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  const auto it = t.ids.find(name);
  if (it != t.ids.end()) return it->second;
  const auto id = static_cast<FileId>(t.names.size());
  t.names.push_back(name);
  t.ids.emplace(name, id);
  return id;
}

const std::string& source_file_name(FileId id) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return id < t.names.size() ? t.names[id] : t.names[0];
}

}  // namespace aicore
