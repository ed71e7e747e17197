#pragma once
// A case's class code ("H1", "M12~", "X") built on the host or a GPU: a few characters appended to a
// fixed buffer, so that a model's classification is one source for both (a string is host-only).
#include "engine/core/host_device.hpp"

namespace vibro {

inline constexpr int kMaxClassCodeChars = 15;

struct ClassText {
  char text[kMaxClassCodeChars + 1] = {};
  int length = 0;

  // What does not fit is cut (a model's codes are a letter, a period and a mark).
  VIBRO_HD ClassText& append(const char* s) {
    while (*s != '\0' && length < kMaxClassCodeChars) text[length++] = *s++;
    text[length] = '\0';
    return *this;
  }
  // `value` in decimal, as std::to_string writes it.
  VIBRO_HD ClassText& append(int value) {
    char digits[12];
    int n = 0;
    const bool negative = value < 0;
    long long v = negative ? -static_cast<long long>(value) : value;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v > 0);
    if (negative) digits[n++] = '-';
    while (n > 0 && length < kMaxClassCodeChars) text[length++] = digits[--n];
    text[length] = '\0';
    return *this;
  }
};

}  // namespace vibro
