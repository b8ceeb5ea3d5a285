#include "embed/embedder.h"

#include <cmath>

namespace kebab::embed {

void L2Normalize(Vector& v) {
  double sum = 0;
  for (float x : v) sum += static_cast<double>(x) * x;
  if (sum <= 0) return;
  const float scale = static_cast<float>(1.0 / std::sqrt(sum));
  for (float& x : v) x *= scale;
}

}  // namespace kebab::embed
