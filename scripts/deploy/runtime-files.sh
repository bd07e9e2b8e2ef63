#!/bin/sh
# Copies what a deployed process reads at run time, besides node_modules, from a built tree
# (after tsc) to a folder: the Dockerfile's build stage runs it, and test/e2e/production-image.test.ts
# checks the result boots and holds every data file of the source folders.
#   sh scripts/deploy/runtime-files.sh SOURCE DEST
set -eu
src=$1
dest=$2
mkdir -p "$dest"
for path in \
  package.json \
  package-lock.json \
  dist \
  catalogue \
  activities/ai/prompts \
  domain/developers/common-passwords.txt; do
  mkdir -p "$dest/$(dirname "$path")"
  cp -R "$src/$path" "$dest/$path"
done
# Compiled tests, benchmarks and the compiler's bookkeeping never run in a deployment.
rm -rf "$dest/dist/test" "$dest/dist/bench" "$dest/dist/.tsbuildinfo"
