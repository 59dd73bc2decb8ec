//===- CallStack.h - The inlined calls an event sits in ---------*- C++ -*-===//
//
// Part of tmemcheck. Every event of a kernel graph records the calls it was
// inlined through, and every event of one inlined instance has the same
// ones. A copy per event (call sites with their file names, callee names)
// was a large part of what translating a helper at a call site cost; the
// frames are immutable once made, so one list is shared by the frame that
// made it and by all the events it holds.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_CALLSTACK_H
#define TMEMCHECK_ANALYSIS_CALLSTACK_H

#include "tmemcheck/Analysis/SourceLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace tmemcheck {

/// One call on the inlining stack of an event: the call site in the caller
/// and the name of the function called.
struct CallFrame {
  std::string Callee;
  SourceLoc CallSite;
};

/// An immutable list of calls, outermost first, shared by its copies.
class CallStack {
  using Frames = std::vector<CallFrame>;

public:
  using const_iterator = Frames::const_iterator;
  using const_reverse_iterator = Frames::const_reverse_iterator;

  CallStack() = default;

  /// This stack with \p Inner called last.
  CallStack pushed(CallFrame Inner) const {
    auto Longer = std::make_shared<Frames>();
    Longer->reserve(size() + 1);
    if (List)
      Longer->assign(List->begin(), List->end());
    Longer->push_back(std::move(Inner));
    CallStack S;
    S.List = std::move(Longer);
    return S;
  }

  bool empty() const { return !List || List->empty(); }
  size_t size() const { return List ? List->size() : 0; }
  const CallFrame &operator[](size_t I) const { return (*List)[I]; }
  const CallFrame &front() const { return List->front(); }
  const CallFrame &back() const { return List->back(); }
  const_iterator begin() const { return List ? List->begin() : End.begin(); }
  const_iterator end() const { return List ? List->end() : End.end(); }
  const_reverse_iterator rbegin() const {
    return List ? List->rbegin() : End.rbegin();
  }
  const_reverse_iterator rend() const {
    return List ? List->rend() : End.rend();
  }

private:
  std::shared_ptr<const Frames> List;
  /// What an empty stack iterates over.
  static inline const Frames End{};
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_CALLSTACK_H
