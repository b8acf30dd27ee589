#!/usr/bin/env bash
# `pnpm test:deploy`: a Docker engine (started, or installed, when none answers), the base images (official, or
# stand-ins built from Debian's packages when they cannot be pulled), the four service images as compose
# tags them, then test/deploy/stack.test.ts, which runs docker-compose.yml end to end.
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
# What the test's compose project leaves behind: nothing, since its afterAll runs `down -v`. A run cut short
# (jest killed, the machine's time limit) would leave containers, the network and the volumes; they are
# removed here on any exit, and a clean exit with anything left fails. Images and the build cache stay.
project=spam-check-deploy
leftovers() {
  { docker ps -aq --filter "label=com.docker.compose.project=$project" | sed 's/^/container /'
    docker network ls -q --filter "label=com.docker.compose.project=$project" | sed 's/^/network /'
    docker volume ls -q --filter "label=com.docker.compose.project=$project" | sed 's/^/volume /'; } || true
}
remove_leftovers() {
  local ids
  ids=$(docker ps -aq --filter "label=com.docker.compose.project=$project")
  [ -z "$ids" ] || docker rm -f -v $ids >/dev/null
  ids=$(docker network ls -q --filter "label=com.docker.compose.project=$project")
  [ -z "$ids" ] || docker network rm $ids >/dev/null
  ids=$(docker volume ls -q --filter "label=com.docker.compose.project=$project")
  [ -z "$ids" ] || docker volume rm $ids >/dev/null
}
trap remove_leftovers EXIT
pnpm exec jest -c jest.deploy.config.js "$@"
left=$(leftovers)
if [ -n "$left" ]; then
  printf 'FAIL: the deploy test left behind:\n%s\n' "$left" >&2
  exit 1
fi
echo "pnpm test:deploy took ${SECONDS}s (no containers, networks or volumes of $project left)"
