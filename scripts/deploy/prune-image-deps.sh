#!/bin/sh
# What the production dependencies hold that the image must not: the Chromium build packaged in
# @sparticuz/chromium (about 60 MB, for machines without a system Chromium). The image prints with
# Debian's chromium, kept up to date with the distribution's security fixes.
# Usage: sh scripts/deploy/prune-image-deps.sh NODE_MODULES_DIR
set -eu
modules=${1:?usage: prune-image-deps.sh NODE_MODULES_DIR}
rm -rf "$modules/@sparticuz/chromium"
