// core/box: an optional value kept on the heap, with value semantics (copies copy the value, == compares
// values). For a rarely present field of a fact held hundreds of thousands of times: empty, it costs
// one pointer instead of the field's full size.
#pragma once
#include <memory>
#include <utility>

namespace tr2audit {

template <class T>
class Box {
 public:
  Box() = default;
  Box(T value) : m_value(std::make_unique<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor)
  Box(const Box& other) : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& other) {
    if (this != &other) m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  ~Box() = default;

  explicit operator bool() const { return m_value != nullptr; }
  const T& operator*() const { return *m_value; }
  const T* operator->() const { return m_value.get(); }
  /// The value, made (default) when there is none.
  T& emplace() {
    if (!m_value) m_value = std::make_unique<T>();
    return *m_value;
  }
  void reset() { m_value.reset(); }

  bool operator==(const Box& other) const {
    return m_value ? other.m_value && *m_value == *other.m_value : !other.m_value;
  }

 private:
  std::unique_ptr<T> m_value;
};

}  // namespace tr2audit
