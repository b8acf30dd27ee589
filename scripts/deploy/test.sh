#!/usr/bin/env bash
# `pnpm test:deploy`: a Docker engine (started, or installed, when none answers), the base images (official, or
# stand-ins built from Debian's packages when they cannot be pulled), the four service images as compose
# tags them, then test/compose/stack.deploy.ts, which runs docker-compose.yml end to end.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS=0
bash scripts/deploy/engine.sh
printf '==> base images\n'
images=$(bash scripts/deploy/images.sh)
printf '%s\n' "$images"
while IFS= read -r line; do export "${line?}"; done <<<"$images"
echo "engine and base images ready after ${SECONDS}s"

# The targets compose builds (docker-compose.yml: spam-check/<service>:${TAG:-local}), built here so that
# their progress shows; the test then starts compose on them. One build stage serves all four.
printf '==> service images\n'
for service in gateway auth email-detector text-detector; do
  docker build --progress=plain --build-arg "NODE_IMAGE=$NODE_IMAGE" --target "$service" \
    -t "spam-check/$service:${TAG:-local}" .
done
echo "images built after ${SECONDS}s"
pnpm exec jest -c jest.deploy.config.js "$@"
echo "pnpm test:deploy took ${SECONDS}s"
