// The lines the in-process server logs, kept for a test to read: the
// server-side view of a call (its final status, as the server decided it),
// which a client cannot see once it has cancelled.
#ifndef QS_TESTS_TESTING_LOG_CAPTURE_H_
#define QS_TESTS_TESTING_LOG_CAPTURE_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "spdlog/sinks/base_sink.h"
#include "spdlog/spdlog.h"

namespace qs::testing {

// Adds a sink to spdlog's default logger for its lifetime. The logger's sink
// list is not guarded: create it before the server starts and destroy it
// after the server is gone.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<Sink>()) {
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = spdlog::default_logger()->sinks();
    std::erase(sinks, sink_);
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  // Lines logged so far that hold every one of `parts`.
  int CountLines(const std::vector<std::string>& parts) const {
    int count = 0;
    for (const std::string& line : sink_->Lines()) {
      bool all = true;
      for (const std::string& part : parts)
        all = all && absl::StrContains(line, part);
      count += all;
    }
    return count;
  }

  std::string Text() const {
    std::string text;
    for (const std::string& line : sink_->Lines()) text += line + "\n";
    return text;
  }

 private:
  class Sink final : public spdlog::sinks::base_sink<std::mutex> {
   public:
    std::vector<std::string> Lines() {
      std::lock_guard<std::mutex> lock(this->mutex_);
      return lines_;
    }

   protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
      lines_.emplace_back(msg.payload.data(), msg.payload.size());
    }
    void flush_() override {}

   private:
    std::vector<std::string> lines_;
  };

  std::shared_ptr<Sink> sink_;
};

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_LOG_CAPTURE_H_
