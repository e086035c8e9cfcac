// Generated blocks inside hand-written markdown.
#include <stdexcept>

#include "docgen.hpp"

namespace aicore::docgen {
namespace {

const std::string kOpen = "<!-- generated: ";
const std::string kClose = "<!-- end generated: ";

// The block's name after an opening marker at `at`.
std::string name_at(const std::string& doc, size_t at) {
  const size_t b = at + kOpen.size();
  size_t e = b;
  while (e < doc.size() && doc[e] != ' ' && doc[e] != '\n') ++e;
  return doc.substr(b, e - b);
}

}  // namespace

std::vector<std::string> block_names(const std::string& doc) {
  std::vector<std::string> out;
  for (size_t at = doc.find(kOpen); at != std::string::npos; at = doc.find(kOpen, at + 1))
    out.push_back(name_at(doc, at));
  return out;
}

std::string splice(const std::string& doc, const std::string& name, const std::string& body) {
  size_t open = std::string::npos;
  for (size_t at = doc.find(kOpen); at != std::string::npos; at = doc.find(kOpen, at + 1)) {
    if (name_at(doc, at) != name) continue;
    if (open != std::string::npos) throw std::runtime_error("block '" + name + "' opens twice");
    open = at;
  }
  if (open == std::string::npos) throw std::runtime_error("no '" + kOpen + name + " -->' marker");
  const size_t body_begin = doc.find('\n', open);
  const std::string close = kClose + name + " -->";
  const size_t body_end = doc.find(close, open);
  if (body_begin == std::string::npos || body_end == std::string::npos || body_end < body_begin)
    throw std::runtime_error("block '" + name + "' has no '" + close + "' marker after it opens");
  if (doc.find(kOpen, open + 1) < body_end)
    throw std::runtime_error("block '" + name + "' contains another block's opening marker");
  return doc.substr(0, body_begin + 1) + body + doc.substr(body_end);
}

}  // namespace aicore::docgen
