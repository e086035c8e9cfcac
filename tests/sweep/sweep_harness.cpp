#include "sweep_harness.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sweep_test {

namespace fs = std::filesystem;

StudyDir::StudyDir() {
  const fs::path traces(AICORE_TRACES_DIR);
  for (const auto& e : fs::directory_iterator(traces / "seed_sparse_16x64x16"))
    fs::copy_file(e.path(), fs::path(path()) / e.path().filename());
  fs::create_directory(fs::path(path()) / "tiled");
  for (const auto& e : fs::directory_iterator(traces / "tiled_sparse_512x1024x512"))
    fs::copy_file(e.path(), fs::path(path()) / "tiled" / e.path().filename());
}

harness::Result StudyDir::sweep(const std::string& study, const std::string& args,
                                const std::string& out) const {
  return harness::run("sweep " + file(study) + " --out " + file(out) + " " + args);
}

harness::Result run_env(const std::string& env, const std::string& args) {
  return test_support::run_shell("env " + env + " " AICORE_SIM_BIN " " + args);
}

int spawn(const std::vector<std::string>& args, const std::string& out_file, const std::string& err_file) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (o < 0 || e < 0) _exit(126);
  dup2(o, 1);
  dup2(e, 2);
  std::vector<std::string> all = {AICORE_SIM_BIN};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

int wait_exit(int pid) {
  int st = 0;
  if (waitpid(pid, &st, 0) != pid) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

std::vector<Row> read_csv(const std::string& path, std::vector<std::string>* header) {
  const std::string text = slurp(path);
  std::vector<std::vector<std::string>> records(1);
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().push_back(cell);
      cell.clear();
    } else if (c == '\n') {
      records.back().push_back(cell);
      cell.clear();
      records.emplace_back();
    } else {
      cell += c;
    }
  }
  if (!records.back().empty() || !cell.empty()) throw std::runtime_error(path + ": last line not terminated");
  records.pop_back();
  if (records.empty()) throw std::runtime_error(path + ": empty");
  if (header) *header = records.front();
  std::vector<Row> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != records[0].size())
      throw std::runtime_error(path + ": ragged row " + std::to_string(r));
    Row row;
    for (size_t i = 0; i < records[0].size(); ++i) row[records[0][i]] = records[r][i];
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(slurp(path));
}

size_t record_count(const std::string& out_dir) {
  size_t n = 0;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(out_dir) / "points", ec), end; !ec && it != end; it.increment(ec))
    n += fs::exists(it->path() / "point.json");
  return n;
}

}  // namespace sweep_test
