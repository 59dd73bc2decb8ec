//===- AnalysisRoots.h - Which functions are analysed as kernels -*- C++
//-*-===//
//
// Part of tmemcheck. A kernel is not always a `__global__` function of the
// file: megakernel tasks (Mirage) are `__device__` functions that a
// scheduler kernel elsewhere calls, and JIT libraries (DeepGEMM) ship
// kernel templates that are instantiated only at run time. These settings
// (`Roots:` and `Instantiate:` in .tmemcheck.yaml) say which extra entry
// points the Clang front end analyses. Plain data, shared by the config
// loader and the front end.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_ANALYSISROOTS_H
#define TMEMCHECK_FRONTEND_ANALYSISROOTS_H

#include <string>
#include <vector>

namespace tmemcheck {

/// One specialisation to instantiate (`Instantiate:`): the template's
/// qualified name and its template arguments as written between `<` `>`.
struct TemplateInstantiation {
  std::string Kernel;
  std::string Args;
  friend bool operator==(const TemplateInstantiation &A,
                         const TemplateInstantiation &B) {
    return A.Kernel == B.Kernel && A.Args == B.Args;
  }
};

/// The entry points analysed besides the `__global__` functions.
struct AnalysisRoots {
  /// `__device__` functions defined in the main file that use TMEM, that
  /// nothing in the translation unit calls or references, and that are not
  /// thin wrappers (their tcgen05 operations come from more than one
  /// statement): analysed as entry points, assuming the whole CTA enters.
  bool UnreferencedDeviceFunctions = true;
  /// Qualified names of functions always analysed as entry points (any
  /// file of the translation unit), whether referenced or not.
  std::vector<std::string> Functions;
  /// Specialisations appended to each translation unit whose main file
  /// names the template.
  std::vector<TemplateInstantiation> Instantiations;
};

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_ANALYSISROOTS_H
