// Tier 2 of the code extractor: manifests as one block named by their package, Dockerfiles by
// build stage, Kubernetes YAML by resource, shell scripts by function; what the readers do
// not claim is `<top-level>`, and a file they find nothing in stays Tier 3.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "parse/internal/code.h"

namespace kebab::parse::internal {
namespace {

struct Want {
  std::optional<std::string> symbol;  // nullopt: a Tier 3 paragraph
  uint64_t start, end;
};

CanonicalDocument Extract(const std::string& path, const std::string& bytes) {
  ExtractInput in{bytes, path, "asset", "2026-11-28T00:00:00Z"};
  Result<CanonicalDocument> doc = CodeExtractor().Extract(in);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return doc.ok() ? *std::move(doc) : CanonicalDocument();
}

::testing::AssertionResult BlocksAre(const CanonicalDocument& doc, const std::vector<Want>& want) {
  std::string got;
  for (const Block& b : doc.blocks) {
    got += b.span.symbol.value_or("(none)") + " " + std::to_string(b.span.start) + "-" +
           std::to_string(b.span.end) + "; ";
  }
  if (doc.blocks.size() != want.size()) {
    return ::testing::AssertionFailure() << "got " << got << "want " << want.size() << " blocks";
  }
  for (size_t i = 0; i < want.size(); ++i) {
    const SourceSpan& s = doc.blocks[i].span;
    if (s.symbol != want[i].symbol || s.start != want[i].start || s.end != want[i].end) {
      return ::testing::AssertionFailure() << "block " << i << " differs; got " << got;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(CodeManifestTest, EachManifestIsOneBlockNamedByItsPackage) {
  const std::pair<std::string, std::string> named[] = {
      {"crates/up/Cargo.toml",
       "\n[package]\nname = \"uploader\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = "
       "\"1\"\n\n"},
      {"web/package.json",
       "\n{\n  \"name\": \"@acme/web\",\n  \"version\": \"1.0.0\",\n"
       "  \"dependencies\": {\"name\": \"not-this\"}\n}\n\n\n"},
      {"pyproject.toml",
       "\n[build-system]\nrequires = [\"x\"]\n\n[project]\nname = "
       "'acme-tools'\n\n"},
      {"go.mod", "\nmodule github.com/acme/svc // the service\n\ngo 1.22\n\nrequire x v1\n\n"},
      {"pom.xml",
       "\n<project>\n  <parent><artifactId>base</artifactId></parent>\n"
       "  <!-- <artifactId>old</artifactId> -->\n  <artifactId>acme-core</artifactId>\n"
       "</project>\n\n"},
      {"settings.gradle", "\nrootProject.name = 'acme'\n\ninclude 'app'\n\n\ninclude 'lib'\n\n"},
  };
  const std::string symbols[] = {"uploader",  "@acme/web", "acme-tools", "github.com/acme/svc",
                                 "acme-core", "acme"};
  const uint64_t ends[] = {7, 6, 6, 6, 6, 7};
  for (size_t i = 0; i < std::size(named); ++i) {
    const CanonicalDocument doc = Extract(named[i].first, named[i].second);
    EXPECT_TRUE(BlocksAre(doc, {{symbols[i], 2, ends[i]}})) << named[i].first;
  }
}

TEST(CodeManifestTest, AManifestWithoutAReadableNameIsNamedByItsFile) {
  EXPECT_TRUE(
      BlocksAre(Extract("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n"), {{"Cargo.toml", 1, 2}}));
  EXPECT_TRUE(BlocksAre(Extract("web/package.json", "{\"name\": 3,\n"), {{"package.json", 1, 1}}));
  EXPECT_TRUE(BlocksAre(Extract("app/build.gradle", "plugins {\n  id 'java'\n}\n\ngroup = 'x'\n"),
                        {{"build.gradle", 1, 5}}));
  const CanonicalDocument kts = Extract("app/build.gradle.kts", "plugins {\n  java\n}\n");
  EXPECT_TRUE(BlocksAre(kts, {{"build.gradle.kts", 1, 3}}));
  EXPECT_EQ(kts.blocks[0].span.lang, "gradle");
  // Another TOML file is no manifest: Tier 3 paragraphs.
  EXPECT_TRUE(BlocksAre(Extract("rustfmt.toml", "edition = \"2021\"\n\nmax_width = 100\n"),
                        {{std::nullopt, 1, 1}, {std::nullopt, 3, 3}}));
}

TEST(CodeDockerfileTest, EachBuildStageIsABlock) {
  const CanonicalDocument doc = Extract("svc/Dockerfile",
                                        "# syntax=docker/dockerfile:1\n"                // 1
                                        "ARG GO=1.22\n"                                 // 2
                                        "FROM golang:${GO} AS build\n"                  // 3
                                        "RUN go build \\\n"                             // 4
                                        "  -o /app .\n"                                 // 5
                                        "\n"                                            // 6
                                        "# The runtime image.\n"                        // 7
                                        "FROM --platform=linux/amd64 debian:12-slim\n"  // 8
                                        "COPY --from=build /app /app\n"                 // 9
                                        "\n"                                            // 10
                                        "from scratch as Export\n"                      // 11
                                        "COPY --from=build /app /\n"                    // 12
                                        "\n");
  EXPECT_TRUE(BlocksAre(doc, {{"build", 1, 5}, {"debian:12-slim", 7, 9}, {"Export", 11, 12}}));
  EXPECT_EQ(doc.blocks[0].span.lang, "dockerfile");
  EXPECT_EQ(doc.blocks[1].text,
            "# The runtime image.\nFROM --platform=linux/amd64 debian:12-slim\n"
            "COPY --from=build /app /app");
}

TEST(CodeDockerfileTest, AOneStageDockerfileIsOneBlock) {
  EXPECT_TRUE(
      BlocksAre(Extract("Containerfile", "FROM python:3.12\n\nWORKDIR /app\n\nCMD [\"python\"]\n"),
                {{"python:3.12", 1, 5}}));
  EXPECT_TRUE(
      BlocksAre(Extract("ci.dockerfile", "# no stage at all\nRUN x\n"), {{std::nullopt, 1, 2}}));
}

TEST(CodeKubernetesTest, EachResourceIsABlockNamedKindNamespaceName) {
  const CanonicalDocument doc = Extract("deploy/app.yaml",
                                        "---\n"                        // 1
                                        "# The API.\n"                 // 2
                                        "apiVersion: apps/v1\n"        // 3
                                        "kind: Deployment\n"           // 4
                                        "metadata:\n"                  // 5
                                        "  name: api\n"                // 6
                                        "  namespace: prod\n"          // 7
                                        "  labels:\n"                  // 8
                                        "    name: not-this\n"         // 9
                                        "spec:\n"                      // 10
                                        "  replicas: 2\n"              // 11
                                        "---\n"                        // 12
                                        "apiVersion: v1\n"             // 13
                                        "kind: Service\n"              // 14
                                        "metadata:\n"                  // 15
                                        "  name: \"api\"  # quoted\n"  // 16
                                        "\n"                           // 17
                                        "--- # not Kubernetes\n"       // 18
                                        "title: settings\n"            // 19
                                        "name: x\n"                    // 20
                                        "---\n"                        // 21
                                        "apiVersion: v1\n"             // 22
                                        "kind: ConfigMap\n"            // 23
                                        "metadata: \n"                 // 24
                                        "    namespace: 'jobs'\n"      // 25
                                        "    name: limits\n"           // 26
                                        "data:\n"                      // 27
                                        "  retries: \"3\"\n");         // 28
  EXPECT_TRUE(BlocksAre(doc, {{"Deployment/prod/api", 2, 11},
                              {"Service/default/api", 13, 16},
                              {"<top-level>", 19, 20},
                              {"ConfigMap/jobs/limits", 22, 28}}));
  EXPECT_EQ(doc.blocks[2].text, "title: settings\nname: x");
}

TEST(CodeKubernetesTest, YamlWithoutResourcesStaysParagraphs) {
  EXPECT_TRUE(BlocksAre(Extract(".github/ci.yml", "name: ci\non: push\n\njobs:\n  a: 1\n"),
                        {{std::nullopt, 1, 2}, {std::nullopt, 4, 5}}));
}

TEST(CodeShellTest, EachFunctionIsABlockWithItsComments) {
  const CanonicalDocument doc = Extract("deploy/release.sh",
                                        "#!/bin/bash\n"                           // 1
                                        "# Release helpers.\n"                    // 2
                                        "set -euo pipefail\n"                     // 3
                                        "\n"                                      // 4
                                        "# Uploads the archive, retrying.\n"      // 5
                                        "# Fails after three tries.\n"            // 6
                                        "upload() {\n"                            // 7
                                        "  local msg='}'  # a quoted brace\n"     // 8
                                        "  for i in 1 2 3; do\n"                  // 9
                                        "    curl \"${URL}\" && return 0\n"       // 10
                                        "  done\n"                                // 11
                                        "}\n"                                     // 12
                                        "\n"                                      // 13
                                        "function notify\n"                       // 14
                                        "{\n"                                     // 15
                                        "  echo \"done: ${#ARGS[@]} {\"\n"        // 16
                                        "}\n"                                     // 17
                                        "function tidy() { rm -rf \"$TMP\"; }\n"  // 18
                                        "\n"                                      // 19
                                        "upload && notify\n");                    // 20
  EXPECT_TRUE(BlocksAre(doc, {{"<top-level>", 1, 3},
                              {"upload", 5, 12},
                              {"notify", 14, 17},
                              {"tidy", 18, 18},
                              {"<top-level>", 20, 20}}));
  EXPECT_EQ(doc.blocks[1].span.lang, "shell");
}

TEST(CodeShellTest, AScriptWithoutFunctionsStaysParagraphs) {
  EXPECT_TRUE(BlocksAre(Extract("run.sh", "#!/bin/sh\nif (true); then echo; fi\n\nmake all\n"),
                        {{std::nullopt, 1, 2}, {std::nullopt, 4, 4}}));
}

}  // namespace
}  // namespace kebab::parse::internal
