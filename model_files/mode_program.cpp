#include "model_files/mode_program.hpp"

#include <cstring>
#include <map>
#include <tuple>

namespace vibro::model_file {

namespace {
bool is_binary(TapeCode code) {
  return code == TapeCode::Add || code == TapeCode::Sub || code == TapeCode::Mul || code == TapeCode::Div ||
         code == TapeCode::Min || code == TapeCode::Max || code == TapeCode::Atan2;
}
}  // namespace

ModeProgram fuse_mode(const std::vector<const Program*>& components, int states) {
  ModeProgram p;
  p.tape.inputs = states + 2;
  // An operation's identity: its code, operand slots and constant's bits; the same one again is its slot.
  using Key = std::tuple<TapeCode, int, int, std::uint64_t>;
  std::map<Key, int> seen;
  const auto slot_of = [&](TapeCode code, int a, int b, double constant) {
    std::uint64_t bits;
    std::memcpy(&bits, &constant, sizeof bits);
    const Key key{code, a, b, bits};
    if (const auto it = seen.find(key); it != seen.end()) return it->second;
    const int slot = p.tape.inputs + static_cast<int>(p.tape.ops.size());
    p.tape.ops.push_back({code, a, b, constant});
    seen.emplace(key, slot);
    return slot;
  };
  for (const Program* program : components) {
    std::vector<int> stack;  // slots
    for (const ProgramOp& o : program->ops) {
      if (o.code == TapeCode::Input) {
        stack.push_back(static_cast<int>(o.constant));
      } else if (o.code == TapeCode::Constant) {
        stack.push_back(slot_of(TapeCode::Constant, 0, 0, o.constant));
      } else if (is_binary(o.code)) {
        const int b = stack.back();
        stack.pop_back();
        stack.back() = slot_of(o.code, stack.back(), b, 0);
      } else {  // unary, or with a constant operand: b repeats a (never read)
        stack.back() = slot_of(o.code, stack.back(), stack.back(), o.constant);
      }
    }
    p.tape.outputs.push_back(stack.back());
  }
  p.usable = p.tape.inputs + static_cast<int>(p.tape.ops.size()) <= ModeProgram::kMaxSlots;
  return p;
}

}  // namespace vibro::model_file
