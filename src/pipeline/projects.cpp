#include "tr2audit/pipeline/projects.hpp"

#include <algorithm>
#include <set>

#include "tr2audit/core/text.hpp"

namespace tr2audit::pipeline {
namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string{} : path.substr(0, slash);
}

bool is_manifest(const discover::SourceFile& file) {
  const std::string name = file.rel_path.substr(file.rel_path.rfind('/') + 1);
  return name == "setup.py" || file.kind == discover::FileKind::pyproject ||
         file.kind == discover::FileKind::requirements;
}

bool is_training_entry(const facts::FileFacts& file) {
  if (file.is_test) return false;
  for (const auto& loop : file.loops) {
    if (loop.calls_backward) return true;
  }
  for (const auto& call : file.calls) {
    const std::string receiver = to_lower(call.receiver_text);
    if ((call.method == "train" || call.method == "fit") && receiver.find("trainer") != std::string::npos) return true;
  }
  return false;
}

bool inside(const std::string& path, const std::string& folder) {
  return folder.empty() || (starts_with(path, folder) && path.size() > folder.size() && path[folder.size()] == '/');
}

}  // namespace

std::vector<std::string> find_projects(const std::vector<discover::SourceFile>& files,
                                       const std::vector<facts::FileFacts>& facts) {
  std::set<std::string> candidates;
  for (const auto& file : files) {
    const std::string folder = folder_of(file.rel_path);
    if (!folder.empty() && is_manifest(file)) candidates.insert(folder);
    const auto parts = split(file.rel_path, '/');
    if (parts.size() >= 3 && (parts[0] == "examples" || parts[0] == "projects" || parts[0] == "recipes"))
      candidates.insert(std::string(parts[0]) + "/" + std::string(parts[1]));
  }
  std::vector<std::string> projects;
  for (const auto& folder : candidates) {
    const bool trains = std::any_of(facts.begin(), facts.end(), [&](const facts::FileFacts& f) {
      return inside(f.path, folder) && is_training_entry(f);
    });
    if (trains) projects.push_back(folder);
  }
  // Keep the outermost of nested candidates: a project's own sub-packages are part of it.
  std::vector<std::string> outermost;
  for (const auto& folder : projects) {
    const bool nested = std::any_of(projects.begin(), projects.end(),
                                    [&](const std::string& other) { return other != folder && inside(folder, other); });
    if (!nested) outermost.push_back(folder);
  }
  if (outermost.size() < 2) outermost.clear();
  return outermost;
}

std::string project_of(const std::string& path, const std::vector<std::string>& projects) {
  std::string best;
  for (const auto& folder : projects) {
    if (inside(path, folder) && folder.size() > best.size()) best = folder;
  }
  return best;
}

}  // namespace tr2audit::pipeline
