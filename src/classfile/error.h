// Error values of the class-file library.
//
// Internally the parser throws ParseFailure (errors are rare and deep in recursive
// decoders); every public entry point catches it and returns a Result, so callers never
// see an exception for malformed input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace dragnet::classfile {

struct Error {
  std::string className;            // internal form; empty until this_class is known
  std::optional<size_t> offset;     // byte offset in the class file
  std::optional<uint16_t> cpIndex;  // constant-pool index involved, if any
  std::string message;

  // "java/lang/Foo: offset 1234: constant pool #12: expected Utf8, found Class"
  std::string toString() const;
};

// Thrown inside the library, converted to Error at the public boundary.
class ParseFailure : public std::runtime_error {
 public:
  explicit ParseFailure(Error e) : std::runtime_error(e.message), error_(std::move(e)) {}
  const Error& error() const { return error_; }
  Error& error() { return error_; }

 private:
  Error error_;
};

[[noreturn]] void fail(std::optional<size_t> offset, std::string message,
                       std::optional<uint16_t> cpIndex = std::nullopt);

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace dragnet::classfile
