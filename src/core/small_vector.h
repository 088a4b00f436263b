// SmallVector<T, N>: a std::vector-like array of trivially copyable elements that keeps up to N of
// them inline and moves to the heap beyond. Shapes and strides (Dims) use it: almost every tensor
// has at most 8 dims, so planning and launching an op allocate nothing for them. It converts to
// and from std::vector<T> implicitly, so code written against std::vector keeps working.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace pacl {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable elements");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() noexcept {}  // user-provided: `const Dims none;` is valid
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(size_t n, const T& v) { assign(n, v); }
  SmallVector(std::initializer_list<T> l) { assign(l.begin(), l.end()); }
  template <typename It, typename = std::enable_if_t<!std::is_integral_v<It>>>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit on purpose
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  ~SmallVector() { release(); }

  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> l) {
    assign(l.begin(), l.end());
    return *this;
  }
  SmallVector& operator=(const std::vector<T>& v) {
    assign(v.begin(), v.end());
    return *this;
  }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT: implicit on purpose

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  T& operator[](size_t i) { return ptr_[i]; }
  const T& operator[](size_t i) const { return ptr_[i]; }
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return ptr_[i];
  }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return ptr_[i];
  }
  T& front() { return ptr_[0]; }
  const T& front() const { return ptr_[0]; }
  T& back() { return ptr_[size_ - 1]; }
  const T& back() const { return ptr_[size_ - 1]; }

  iterator begin() { return ptr_; }
  iterator end() { return ptr_ + size_; }
  const_iterator begin() const { return ptr_; }
  const_iterator end() const { return ptr_ + size_; }
  const_iterator cbegin() const { return ptr_; }
  const_iterator cend() const { return ptr_ + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t n) {
    if (n <= cap_) return;
    if (n > static_cast<size_t>(PTRDIFF_MAX) / sizeof(T)) throw std::length_error("SmallVector: size too large");
    T* p = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!p) throw std::bad_alloc();
    if (size_) std::memcpy(p, ptr_, size_ * sizeof(T));
    if (ptr_ != inline_) std::free(ptr_);
    ptr_ = p;
    cap_ = n;
  }
  void resize(size_t n) { resize(n, T()); }
  void resize(size_t n, const T& v) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr_[i] = v;
    size_ = n;
  }
  void clear() { size_ = 0; }
  void push_back(const T& v) {
    if (size_ == cap_) {
      const T copy = v;  // v may live in this vector
      reserve(cap_ * 2);
      ptr_[size_++] = copy;
      return;
    }
    ptr_[size_++] = v;
  }
  template <typename... A>
  T& emplace_back(A&&... a) {
    push_back(T(std::forward<A>(a)...));
    return back();
  }
  void pop_back() { --size_; }

  void assign(size_t n, const T& v) {
    const T copy = v;
    size_ = 0;
    resize(n, copy);
  }
  template <typename It, typename = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    const auto n = static_cast<size_t>(std::distance(first, last));
    if (n > cap_) {
      SmallVector tmp;
      tmp.reserve(n);
      for (; first != last; ++first) tmp.ptr_[tmp.size_++] = *first;
      *this = std::move(tmp);
      return;
    }
    size_ = 0;
    for (; first != last; ++first) ptr_[size_++] = *first;
  }

  iterator insert(const_iterator pos, const T& v) { return insert(pos, size_t{1}, v); }
  iterator insert(const_iterator pos, size_t n, const T& v) {
    const T copy = v;
    const size_t at = static_cast<size_t>(pos - begin());
    open_gap(at, n);
    for (size_t i = 0; i < n; ++i) ptr_[at + i] = copy;
    return begin() + at;
  }
  template <typename It, typename = std::enable_if_t<!std::is_integral_v<It>>>
  iterator insert(const_iterator pos, It first, It last) {
    const SmallVector items(first, last);  // the range may alias this vector
    const size_t at = static_cast<size_t>(pos - begin());
    open_gap(at, items.size());
    std::copy(items.begin(), items.end(), ptr_ + at);
    return begin() + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<T> l) { return insert(pos, l.begin(), l.end()); }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t a = static_cast<size_t>(first - begin()), b = static_cast<size_t>(last - begin());
    std::memmove(ptr_ + a, ptr_ + b, (size_ - b) * sizeof(T));
    size_ -= b - a;
    return begin() + a;
  }
  void swap(SmallVector& o) noexcept {
    SmallVector t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }
  friend bool operator<(const SmallVector& a, const SmallVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  void open_gap(size_t at, size_t n) {
    reserve(std::max(size_ + n, cap_ * 2));
    std::memmove(ptr_ + at + n, ptr_ + at, (size_ - at) * sizeof(T));
    size_ += n;
  }
  void release() {
    if (ptr_ != inline_) std::free(ptr_);
    ptr_ = inline_;
    cap_ = N;
    size_ = 0;
  }
  void steal(SmallVector& o) {
    if (o.ptr_ == o.inline_) {
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
      ptr_ = inline_;
      cap_ = N;
    } else {
      ptr_ = o.ptr_;
      cap_ = o.cap_;
      o.ptr_ = o.inline_;
      o.cap_ = N;
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  T inline_[N];
  T* ptr_ = inline_;
  size_t size_ = 0;
  size_t cap_ = N;
};

}  // namespace pacl
