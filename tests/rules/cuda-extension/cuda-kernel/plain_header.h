// A plain C++ header: no kernels, no findings.
#pragma once
// ok: cuda-extension.cuda-kernel
inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
