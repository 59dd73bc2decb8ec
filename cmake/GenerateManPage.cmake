# Writes tmemcheck.1 from `tmemcheck --help` (run at install time, so the
# page always matches the installed binary). Variables: TMEMCHECK (the
# binary), VERSION, OUT (the .1 file).
execute_process(COMMAND "${TMEMCHECK}" --help OUTPUT_VARIABLE Help
                RESULT_VARIABLE RC)
if(NOT RC EQUAL 0)
  message(FATAL_ERROR "cannot run '${TMEMCHECK} --help' for the man page")
endif()
# roff: a leading '.' or "'" starts a request, a backslash an escape.
string(REPLACE "\\" "\\e" Help "${Help}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" Help "${Help}")
string(TIMESTAMP Today "%Y-%m-%d" UTC)
file(WRITE "${OUT}" ".TH TMEMCHECK 1 \"${Today}\" \"tmemcheck ${VERSION}\" \"User Commands\"
.SH NAME
tmemcheck \\- static analysis of tcgen05 Tensor Memory use in CUDA kernels
.SH SYNOPSIS
.B tmemcheck
[\\fIoptions\\fR] [\\fIfile\\fR ...] [\\fB\\-\\-\\fR \\fIcompiler flags\\fR]
.br
.B tmemcheck \\-p
\\fIbuild-dir\\fR [\\fIoptions\\fR] [\\fIfile\\fR ...]
.SH DESCRIPTION
The options, as \\fBtmemcheck \\-\\-help\\fR prints them:
.PP
.nf
${Help}
.fi
.SH FILES
.TP
.I .tmemcheck.yaml
configuration, found upward from each file (see \\fBtmemcheck \\-\\-dump\\-config\\fR)
.TP
.I lib/tmemcheck/libTmemTidyModule.so
the clang-tidy plugin (\\fBclang-tidy-22 \\-load\\fR)
.TP
.I lib/tmemcheck/libTmemAnalyzerPlugin.so
the Clang Static Analyzer plugin
.SH SEE ALSO
The documentation installed in share/doc/tmemcheck: README.md, user-guide.md,
rules.md (the rules the checks cite) and checks/ (one page per check).
")
