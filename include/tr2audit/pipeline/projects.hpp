// pipeline/projects: finds independent training projects inside one scan root (a monorepo or an
// examples collection), so each gets its own verdict beside the overall one. A project is a folder
// with its own manifest (setup.py, pyproject.toml, requirements*.txt) or a direct subfolder of
// examples/, projects/ or recipes/, that holds a training entry point (a loop running backward(),
// or a Trainer/Lightning fit call). Only reported when there are at least two.
#pragma once
#include <string>
#include <vector>

#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/facts.hpp"

namespace tr2audit::pipeline {

/// Project folders (repo-relative, no trailing '/'), sorted; empty when the root is one project.
std::vector<std::string> find_projects(const std::vector<discover::SourceFile>& files,
                                       const std::vector<facts::FileFacts>& facts);

/// The project a repo-relative path belongs to ("" when none): the longest folder prefix.
std::string project_of(const std::string& path, const std::vector<std::string>& projects);

}  // namespace tr2audit::pipeline
