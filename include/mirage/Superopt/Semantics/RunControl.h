//===- RunControl.h - a caller's way to stop an interpreter run -*- C++ -*-===//
//
// Both arithmetics carry this, so that the evaluators of every level can
// ask, between ops and between the blocks of a graph-defined kernel,
// whether the caller (the search's budget, say) wants the run to stop.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RUNCONTROL_H
#define MIRAGE_SUPEROPT_RUNCONTROL_H

#include <chrono>
#include <functional>

namespace mirage::superopt {

class RunControl {
public:
  /// `request` (may be null or empty: never stop) must outlive the run.
  void setStopRequest(const std::function<bool()> *request) {
    this->request = request;
    stopped = false;
  }
  /// Asks the caller; once it said stop, the answer stays yes.
  bool shouldStop() {
    if (!stopped && request && *request && (*request)())
      stopped = true;
    return stopped;
  }
  bool wasStopped() const { return stopped; }

private:
  const std::function<bool()> *request = nullptr;
  bool stopped = false;
};

/// A stop request that says yes once `seconds` (from now) have passed: the
/// wall-clock limit of a verification.
inline std::function<bool()> stopAfterSeconds(double seconds) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(seconds));
  return [deadline] { return Clock::now() >= deadline; };
}

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_RUNCONTROL_H
