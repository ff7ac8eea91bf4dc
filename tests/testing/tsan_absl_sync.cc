// Makes Debian's prebuilt Abseil synchronization visible to ThreadSanitizer.
// Linked into every test binary of a -DQS_SANITIZE=thread build only
// (cmake/QsHelpers.cmake).
//
// libabsl_synchronization is not built with -fsanitize=thread, so TSan never
// sees absl::Mutex, absl::CondVar or absl::Notification hand data from one
// thread to the next, and reports every access to mutex-guarded project state
// (the worker pool's queues, admission counters, ...) as a race. This file
// defines those member functions in the executable, which takes precedence
// over the shared library's definitions (ELF symbol interposition, for calls
// from the project and from the libraries alike); each forwards to the
// library's function (dlsym RTLD_NEXT) and tells TSan about the
// synchronization: __tsan_acquire(mutex) once the mutex is held,
// __tsan_release(mutex) before it is let go (CondVar waits and Await let go and
// take it again), release/acquire on a Notification. Real races in project
// code stay visible; only the synchronization TSan could not see is added.
#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <cstdio>
#include <cstdlib>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"

namespace {

// The library's definition of a function this file interposes.
template <typename Fn>
Fn Real(const char* mangled_name) {
  void* symbol = dlsym(RTLD_NEXT, mangled_name);
  if (symbol == nullptr) {
    std::fprintf(stderr,
                 "tsan_absl_sync: %s not found in the Abseil libraries "
                 "(another Abseil version? update the names here)\n",
                 mangled_name);
    std::abort();
  }
  return reinterpret_cast<Fn>(symbol);
}

// absl evaluates a Condition under the mutex, inside the library (in the
// waiting thread or in whichever thread unlocks), where the annotations around
// the call come too early or too late; the wrapped condition acquires before
// and releases after it reads.
struct AnnotatedCondition {
  const absl::Condition* condition;
  absl::Mutex* mutex;
  static bool Eval(void* arg) {
    auto* self = static_cast<AnnotatedCondition*>(arg);
    __tsan_acquire(self->mutex);
    const bool met = self->condition->Eval();
    // What the condition read happens before whoever takes the mutex next.
    __tsan_release(self->mutex);
    return met;
  }
};

#define QS_ANNOTATED_CONDITION(cond, mu)       \
  AnnotatedCondition annotated{&(cond), (mu)}; \
  const absl::Condition wrapped(&AnnotatedCondition::Eval, &annotated)

#define QS_REAL(type, name)                  \
  static const auto real = Real<type>(name); \
  (void)0

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

void Mutex::Lock() {
  QS_REAL(void (*)(Mutex*), "_ZN4absl7debian35Mutex4LockEv");
  real(this);
  __tsan_acquire(this);
}

void Mutex::ReaderLock() {
  QS_REAL(void (*)(Mutex*), "_ZN4absl7debian35Mutex10ReaderLockEv");
  real(this);
  __tsan_acquire(this);
}

bool Mutex::TryLock() {
  QS_REAL(bool (*)(Mutex*), "_ZN4absl7debian35Mutex7TryLockEv");
  const bool locked = real(this);
  if (locked) __tsan_acquire(this);
  return locked;
}

bool Mutex::ReaderTryLock() {
  QS_REAL(bool (*)(Mutex*), "_ZN4absl7debian35Mutex13ReaderTryLockEv");
  const bool locked = real(this);
  if (locked) __tsan_acquire(this);
  return locked;
}

void Mutex::Unlock() {
  QS_REAL(void (*)(Mutex*), "_ZN4absl7debian35Mutex6UnlockEv");
  __tsan_release(this);
  real(this);
}

void Mutex::ReaderUnlock() {
  QS_REAL(void (*)(Mutex*), "_ZN4absl7debian35Mutex12ReaderUnlockEv");
  __tsan_release(this);
  real(this);
}

void Mutex::LockWhen(const Condition& cond) {
  QS_REAL(void (*)(Mutex*, const Condition&),
          "_ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE");
  QS_ANNOTATED_CONDITION(cond, this);
  real(this, wrapped);
  __tsan_acquire(this);
}

void Mutex::ReaderLockWhen(const Condition& cond) {
  QS_REAL(void (*)(Mutex*, const Condition&),
          "_ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE");
  QS_ANNOTATED_CONDITION(cond, this);
  real(this, wrapped);
  __tsan_acquire(this);
}

bool Mutex::LockWhenWithTimeout(const Condition& cond, absl::Duration timeout) {
  QS_REAL(bool (*)(Mutex*, const Condition&, absl::Duration),
          "_ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_"
          "9ConditionENS0_8DurationE");
  QS_ANNOTATED_CONDITION(cond, this);
  const bool met = real(this, wrapped, timeout);
  __tsan_acquire(this);  // held on return either way
  return met;
}

bool Mutex::LockWhenWithDeadline(const Condition& cond, absl::Time deadline) {
  QS_REAL(bool (*)(Mutex*, const Condition&, absl::Time),
          "_ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_"
          "9ConditionENS0_4TimeE");
  QS_ANNOTATED_CONDITION(cond, this);
  const bool met = real(this, wrapped, deadline);
  __tsan_acquire(this);
  return met;
}

void Mutex::Await(const Condition& cond) {
  QS_REAL(void (*)(Mutex*, const Condition&),
          "_ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE");
  __tsan_release(this);
  QS_ANNOTATED_CONDITION(cond, this);
  real(this, wrapped);
  __tsan_acquire(this);
}

bool Mutex::AwaitWithTimeout(const Condition& cond, absl::Duration timeout) {
  QS_REAL(bool (*)(Mutex*, const Condition&, absl::Duration),
          "_ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_"
          "9ConditionENS0_8DurationE");
  __tsan_release(this);
  QS_ANNOTATED_CONDITION(cond, this);
  const bool met = real(this, wrapped, timeout);
  __tsan_acquire(this);
  return met;
}

bool Mutex::AwaitWithDeadline(const Condition& cond, absl::Time deadline) {
  QS_REAL(bool (*)(Mutex*, const Condition&, absl::Time),
          "_ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_"
          "9ConditionENS0_4TimeE");
  __tsan_release(this);
  QS_ANNOTATED_CONDITION(cond, this);
  const bool met = real(this, wrapped, deadline);
  __tsan_acquire(this);
  return met;
}

void CondVar::Wait(Mutex* mu) {
  QS_REAL(void (*)(CondVar*, Mutex*),
          "_ZN4absl7debian37CondVar4WaitEPNS0_5MutexE");
  __tsan_release(mu);
  real(this, mu);
  __tsan_acquire(mu);
}

bool CondVar::WaitWithTimeout(Mutex* mu, absl::Duration timeout) {
  QS_REAL(bool (*)(CondVar*, Mutex*, absl::Duration),
          "_ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_"
          "8DurationE");
  __tsan_release(mu);
  const bool timed_out = real(this, mu, timeout);
  __tsan_acquire(mu);
  return timed_out;
}

bool CondVar::WaitWithDeadline(Mutex* mu, absl::Time deadline) {
  QS_REAL(bool (*)(CondVar*, Mutex*, absl::Time),
          "_ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  __tsan_release(mu);
  const bool timed_out = real(this, mu, deadline);
  __tsan_acquire(mu);
  return timed_out;
}

void Notification::Notify() {
  QS_REAL(void (*)(Notification*), "_ZN4absl7debian312Notification6NotifyEv");
  __tsan_release(this);
  real(this);
}

void Notification::WaitForNotification() const {
  QS_REAL(void (*)(const Notification*),
          "_ZNK4absl7debian312Notification19WaitForNotificationEv");
  real(this);
  __tsan_acquire(const_cast<Notification*>(this));
}

bool Notification::WaitForNotificationWithTimeout(
    absl::Duration timeout) const {
  QS_REAL(bool (*)(const Notification*, absl::Duration),
          "_ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_"
          "8DurationE");
  const bool notified = real(this, timeout);
  if (notified) __tsan_acquire(const_cast<Notification*>(this));
  return notified;
}

bool Notification::WaitForNotificationWithDeadline(absl::Time deadline) const {
  QS_REAL(
      bool (*)(const Notification*, absl::Time),
      "_ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_"
      "4TimeE");
  const bool notified = real(this, deadline);
  if (notified) __tsan_acquire(const_cast<Notification*>(this));
  return notified;
}

ABSL_NAMESPACE_END
}  // namespace absl
