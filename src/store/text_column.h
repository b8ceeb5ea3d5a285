// Many short texts in one buffer: the JSON columns of a document's rows cost one allocation
// per column rather than one per row.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kebab::store {

class TextColumn {
 public:
  // Append the next value to text(), then call EndValue().
  std::string& text() { return text_; }
  void EndValue() { ends_.push_back(text_.size()); }

  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  std::string_view back() const { return (*this)[size() - 1]; }
  void Reserve(size_t values, size_t bytes) {
    ends_.reserve(values);
    text_.reserve(bytes);
  }

 private:
  std::string text_;
  std::vector<size_t> ends_;
};

}  // namespace kebab::store
