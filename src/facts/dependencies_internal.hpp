// facts/dependencies_internal (private): the three manifest readers behind extract_dependencies and
// the requirement-string helper they share. Readers are line/cursor based and never throw.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

/// The distribution name a requirement declares: PEP 508 ("Flash_Attn[x]>=2; marker", "name @ url"),
/// a URL or editable with "#egg=name", a wheel/sdist URL, or a VCS URL's repository name. Not normalised;
/// empty when the text names no distribution (a local path, an option, garbage).
std::string requirement_name(std::string_view requirement);

/// A fact for one requirement string found on `line`, or nullopt when it names no distribution.
std::optional<DependencyFact> make_dependency(std::string_view spec, std::string section, std::uint32_t line);

std::vector<DependencyFact> read_requirements_txt(std::string_view text);
std::vector<DependencyFact> read_pyproject(std::string_view text);
std::vector<DependencyFact> read_setup_cfg(std::string_view text);
/// Dockerfile: `FROM image` (section "docker-from", name = the image without tag, lower case),
/// packages of `pip install` in RUN lines ("docker-pip"), `ENV`/`ARG` names ("docker-env", spec = value).
/// `pip install --index-url URL` / `--extra-index-url` / `-f` also give "package-index" facts (name = the
/// URL in lower case) at the URL's physical line.
std::vector<DependencyFact> read_dockerfile(std::string_view text);
/// conda `environment.yml`: each package of `dependencies:` ("conda": `pytorch-cuda=11.7`, `python >= 3.8`,
/// `nvidia::cuda-toolkit`) and of its nested `- pip:` list ("conda-pip", pip requirement strings), at the
/// item's line. Read through the bounded YAML loader; a file that does not load gives nothing.
std::vector<DependencyFact> read_conda_environment(std::string_view text);

}  // namespace tr2audit::facts
