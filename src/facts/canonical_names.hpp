// facts/canonical_names (private): re-exported paths mapped to the public names rules are written
// against, so `torch.utils.data.dataloader.DataLoader`, `torch.nn.modules.linear.Linear` and
// `transformers.trainer.Trainer` match rules on `torch.utils.data.DataLoader`, `torch.nn.Linear` and
// `transformers.Trainer`.
#pragma once
#include "tr2audit/core/qualified_name.hpp"

namespace tr2audit::facts {

/// The public name a resolved path is re-exported under; the name itself when it is not a known
/// implementation path.
QualifiedName canonical_name(QualifiedName name);

}  // namespace tr2audit::facts
