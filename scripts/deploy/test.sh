#!/usr/bin/env bash
# `pnpm test:deploy`: a Docker engine (started or installed when none answers), the base images (official, or
# stand-ins built from Debian's packages when they cannot be pulled), then test/compose/stack.deploy.ts, which
# builds the images and runs docker-compose.yml end to end.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS=0
bash scripts/deploy/engine.sh
printf '==> base images\n'
images=$(bash scripts/deploy/images.sh)
printf '%s\n' "$images"
while IFS= read -r line; do export "${line?}"; done <<<"$images"
echo "engine and base images ready after ${SECONDS}s"
pnpm exec jest -c jest.deploy.config.js "$@"
echo "pnpm test:deploy took ${SECONDS}s"
