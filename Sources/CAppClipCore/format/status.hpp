// Typed failures inside the core; the C API turns them into acc_status + acc_error.
#pragma once
#include <cstddef>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "appclip_core.h"

namespace appclip {

struct Failure {
    acc_status status = ACC_OK;
    int position = -1;   // where in the input, when it is about a place
    int value = -1;      // a number that explains it (e.g. a bit count)
    // Why: a string literal, kept by pointer (a frame's reads fail dozens of decodes, and a
    // std::string of a sentence allocates), or a sentence composed at run time.
    const char* fixed_message = nullptr;
    std::string composed_message;
    const char* message() const { return fixed_message != nullptr ? fixed_message : composed_message.c_str(); }
};

// Either a value or a Failure; small on purpose (C++17 has no std::expected).
template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Failure failure) : failure_(std::move(failure)), ok_(false) {}
    bool ok() const { return ok_; }
    const T& value() const { return value_; }
    T& value() { return value_; }
    const Failure& failure() const { return failure_; }

private:
    T value_{};
    Failure failure_{};
    bool ok_ = true;
};

// A failure explained by a string literal (only arrays bind here: a pointer could dangle).
template <std::size_t N>
Failure fail(acc_status status, const char (&message)[N], int position = -1, int value = -1) {
    return Failure{status, position, value, message, {}};
}
// A failure explained by a sentence composed at run time.
inline Failure fail(acc_status status, std::string message, int position = -1, int value = -1) {
    return Failure{status, position, value, nullptr, std::move(message)};
}

// Copies a Failure into the caller's acc_error (if any) and returns its status.
acc_status report(const Failure& failure, acc_error* error);
// Clears the caller's acc_error for a success.
acc_status report_ok(acc_error* error);

// Runs the body of a C entry point: no C++ exception may cross the C boundary, so
// every one becomes a typed status here (OpenCV's derive from std::exception).
template <typename Body>
acc_status guarded(acc_error* error, Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return report(fail(ACC_E_OUT_OF_MEMORY, "out of memory"), error);
    } catch (const std::exception& e) {
        return report(fail(ACC_E_INVALID_ARGUMENT, std::string("internal error: ") + e.what()), error);
    } catch (...) {
        return report(fail(ACC_E_INVALID_ARGUMENT, "internal error"), error);
    }
}

}  // namespace appclip
