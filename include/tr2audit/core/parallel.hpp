// core/parallel: the one work-sharing loop of the scan (files, then the repository model's per-file
// passes). Items are taken in order from a shared counter; each result goes to its own slot, so the
// outcome never depends on the number of threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tr2audit {

/// Runs work(worker, i) for i in [0, count) on `jobs` threads (worker in [0, jobs)); the calling
/// thread is worker 0. Rethrows the first exception after every thread has stopped.
template <class Work>
void parallel_for(std::size_t count, unsigned jobs, Work&& work) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto run = [&](unsigned worker) {
    try {
      for (std::size_t i = next++; i < count; i = next++) work(worker, i);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(std::max(jobs, 1u), std::max<std::size_t>(count, 1)));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(run, t);
  run(0);
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tr2audit
