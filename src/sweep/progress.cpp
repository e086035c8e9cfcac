#include "aicore/sweep/progress.hpp"

#include <cstdio>
#include <ostream>

namespace aicore::sweep {

using Clock = std::chrono::steady_clock;

namespace {
constexpr auto kRedraw = std::chrono::milliseconds(200);  // terminal
constexpr auto kPlainEvery = std::chrono::seconds(30);    // a log still shows life on a slow study
constexpr int kBarWidth = 24;

std::string duration(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", static_cast<int>(s) / 3600,
                  static_cast<int>(s) / 60 % 60);
  return buf;
}
}  // namespace

Progress::Progress(size_t total, bool enabled, bool tty, std::ostream& err)
    : total_(total),
      enabled_(enabled && total > 0),
      tty_(tty),
      err_(err),
      start_(Clock::now()),
      last_draw_() {}

void Progress::point_done(bool ok) {
  set_done(done_ + 1, failed_ + (ok ? 0 : 1));
}

void Progress::set_done(size_t done, size_t failed) {
  const bool changed = done != done_;
  done_ = done;
  failed_ = failed;
  if (!enabled_ || !changed) return;
  const size_t tenth = total_ ? done_ * 10 / total_ : 10;
  if (tty_) {
    draw(done_ == total_);
  } else if (tenth > last_tenth_ || Clock::now() - last_draw_ >= kPlainEvery) {
    last_tenth_ = tenth;
    draw(true);
  }
}

void Progress::tick() {
  if (enabled_ && tty_) draw(false);
}

void Progress::finish() {
  if (!enabled_) return;
  if (tty_ && drawn_) {
    draw(true);
    err_ << "\n";
  }
  err_.flush();
}

std::string Progress::line() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  char buf[160];
  std::string eta =
      done_ == total_ ? "done in " + duration(elapsed)
                      : (rate > 0 ? "ETA " + duration(static_cast<double>(total_ - done_) / rate) : "ETA -");
  std::snprintf(buf, sizeof buf, "%zu/%zu points (%.0f%%), %.1f points/s, %s", done_, total_,
                total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0, rate,
                eta.c_str());
  std::string s = buf;
  if (failed_) s += ", " + std::to_string(failed_) + " failed";
  return s;
}

void Progress::draw(bool force) {
  const auto now = Clock::now();
  if (!force && now - last_draw_ < kRedraw) return;
  last_draw_ = now;
  if (!tty_) {
    err_ << "sweep: " << line() << "\n";
    err_.flush();
    return;
  }
  const int filled = total_ ? static_cast<int>(kBarWidth * done_ / total_) : kBarWidth;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kBarWidth, '.');
  err_ << "\r\033[K[" << bar << "] " << line();
  err_.flush();
  drawn_ = true;
}

}  // namespace aicore::sweep
