#include "asc_rewrite.hpp"

#include <cctype>
#include <vector>

namespace aicore::cli {

namespace {

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Marks the bytes of `s` that are code (not a comment or a string/character literal).
std::vector<bool> code_mask(const std::string& s) {
  std::vector<bool> code(s.size(), true);
  size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') code[i++] = false;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? s.size() : end + 2;
      while (i < stop) code[i++] = false;
    } else if (s[i] == '"' || s[i] == '\'') {
      // A raw string R"delim( ... )delim".
      if (s[i] == '"' && i > 0 && s[i - 1] == 'R' &&
          (i < 2 || !ident_char(s[i - 2]) || s[i - 2] == 'u' || s[i - 2] == 'U' || s[i - 2] == 'L' ||
           s[i - 2] == '8')) {
        const size_t open = s.find('(', i);
        if (open != std::string::npos) {
          const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
          const size_t end = s.find(close, open);
          const size_t stop = end == std::string::npos ? s.size() : end + close.size();
          while (i < stop) code[i++] = false;
          continue;
        }
      }
      // A digit separator (1'000) is not a character literal.
      if (s[i] == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])) && i + 1 < s.size() &&
          std::isxdigit(static_cast<unsigned char>(s[i + 1]))) {
        size_t j = i;
        while (j > 0 && ident_char(s[j - 1])) --j;
        if (std::isdigit(static_cast<unsigned char>(s[j]))) {
          ++i;
          continue;
        }
      }
      const char q = s[i];
      code[i++] = false;
      while (i < s.size() && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) code[i++] = false;
        code[i++] = false;
      }
      if (i < s.size()) code[i++] = false;
    } else {
      ++i;
    }
  }
  return code;
}

std::string line_col(const std::string& s, size_t at) {
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < at && i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

// The text as a C++ string literal on one line (newlines become spaces).
std::string literal(const std::string& t) {
  std::string out = "\"";
  for (const char c : t) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

AscRewrite rewrite_asc_launches(const std::string& s) {
  AscRewrite r;
  const std::vector<bool> code = code_mask(s);
  auto fail = [&](size_t at, const std::string& msg) {
    r.text.clear();
    r.error = line_col(s, at) + ": " + msg;
    return r;
  };
  std::string out;
  size_t copied = 0;  // s[0, copied) is in out
  for (size_t at = s.find("<<<"); at != std::string::npos; at = s.find("<<<", at + 3)) {
    if (!code[at] || at < copied) continue;
    // The kernel: an id-expression ending right before "<<<", maybe with template arguments.
    size_t b = at;
    while (b > copied && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    size_t name_end = b;
    if (b > copied && s[b - 1] == '>') {  // kernel<T, N><<<...>>>: match the template's '<'
      int depth = 0;
      size_t j = b;
      while (j > copied) {
        --j;
        if (!code[j]) continue;
        if (s[j] == '>') ++depth;
        if (s[j] == '<' && --depth == 0) break;
        if (s[j] == ';' || s[j] == '{' || s[j] == '}')
          return fail(at, "<<<...>>>: cannot find the kernel's name before '<<<'");
      }
      if (depth != 0) return fail(at, "<<<...>>>: unbalanced template arguments before '<<<'");
      b = j;
      while (b > copied && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    }
    while (b > copied && (ident_char(s[b - 1]) || (s[b - 1] == ':' && b >= 2 && s[b - 2] == ':'))) {
      if (s[b - 1] == ':')
        b -= 2;
      else
        --b;
    }
    if (b >= name_end || (!ident_char(s[b]) && s[b] != ':'))
      return fail(
          at, "<<<...>>>: no kernel name before '<<<' (write kernel<<<blockDim, l2ctrl, stream>>>(args))");
    std::string name = s.substr(b, name_end - b);
    if (const size_t lt = name.find('<'); lt != std::string::npos) name = name.substr(0, lt);  // launch dir
    // The launch configuration up to ">>>", split at top-level commas.
    size_t i = at + 3;
    int depth = 0;
    std::vector<std::string> config;
    std::string cur;
    for (;; ++i) {
      if (i >= s.size()) return fail(at, "<<<...>>>: no '>>>' closes this '<<<'");
      if (code[i] && depth == 0 && s.compare(i, 3, ">>>") == 0) break;
      if (code[i] && (s[i] == '(' || s[i] == '[' || s[i] == '{')) ++depth;
      if (code[i] && (s[i] == ')' || s[i] == ']' || s[i] == '}')) --depth;
      if (code[i] && s[i] == ';') return fail(at, "<<<...>>>: no '>>>' closes this '<<<' before ';'");
      if (code[i] && depth == 0 && s[i] == ',') {
        config.push_back(cur);
        cur.clear();
        continue;
      }
      cur += s[i];
    }
    config.push_back(cur);
    const size_t close = i;  // ">>>"
    for (const std::string& c : config)
      if (trim(c).empty())
        return fail(at, "<<<...>>>: an empty launch parameter (write <<<blockDim, l2ctrl, stream>>>)");
    if (config.size() < 2 || config.size() > 3)
      return fail(at, "<<<...>>>: " + std::to_string(config.size()) +
                          " launch parameter(s); aicore-sim takes <<<blockDim, l2ctrl[, stream]>>> (the Cube "
                          "kernels' form; SIMT launches with thread counts need the Vector cores)");
    // The arguments: "(" ... matching ")".
    size_t p = close + 3;
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
    if (p >= s.size() || s[p] != '(')
      return fail(close, "<<<...>>>: '(' and the kernel's arguments must follow '>>>'");
    size_t q = p;
    depth = 0;
    for (; q < s.size(); ++q) {
      if (!code[q]) continue;
      if (s[q] == '(') ++depth;
      if (s[q] == ')' && --depth == 0) break;
    }
    if (q >= s.size()) return fail(p, "<<<...>>>: the kernel's argument list is not closed");
    const std::string args = s.substr(p + 1, q - p - 1);
    // Everything between the name and "(" keeps its newlines: name, then the configuration.
    out.append(s, copied, b - copied);
    out += "::aicore::frontend::asc_kernel(" + s.substr(b, name_end - b) + ", " + literal(trim(name)) + ", " +
           literal(trim(args)) + ", __FILE__, __LINE__).launch(";
    std::string between = s.substr(name_end, at - name_end);  // spaces, template args
    for (const char c : between)
      if (c == '\n') out += '\n';
    for (size_t c = 0; c < config.size(); ++c) out += (c ? "," : "") + config[c];
    out += ")";
    for (size_t c = close + 3; c < p; ++c)
      if (s[c] == '\n') out += '\n';
    copied = p;  // "(args)" is copied as it is
    at = p;
    ++r.launches;
  }
  out.append(s, copied, std::string::npos);
  r.text = std::move(out);
  return r;
}

}  // namespace aicore::cli
