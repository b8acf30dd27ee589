#!/usr/bin/env bash
# Makes sure a Docker engine answers, with the compose v2 and buildx CLI plugins. On the project's Debian
# machines none runs: this installs Debian's docker.io, starts dockerd, and takes compose and buildx (single
# static binaries) from Debian's next release on the mirror this machine already uses. Elsewhere it only
# checks: install Docker as your platform documents it.
set -euo pipefail

step() { printf '==> %s\n' "$*"; }
PLUGINS=/usr/local/lib/docker/cli-plugins

engine_answers() { docker info >/dev/null 2>&1; }

install_engine() {
  command -v apt-get >/dev/null || { echo "FATAL: no Docker engine answers and apt-get is missing: install Docker (the deploy test never skips)" >&2; exit 1; }
  [ "$(id -u)" = 0 ] || { echo "FATAL: no Docker engine answers, and only root can install and start one (the deploy test never skips)" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  step "installing Debian's docker.io"
  apt-get update -q
  apt-get install -q -y --no-install-recommends -o DPkg::Lock::Timeout=600 docker.io
}

start_engine() {
  step "starting dockerd (log: /var/log/dockerd.log)"
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do engine_answers && return; sleep 1; done
  tail -20 /var/log/dockerd.log >&2
  echo "FATAL: dockerd did not answer within 60 s" >&2
  exit 1
}

# The release after this machine's, from the same mirror and with the same key, for two packages only: they
# are read into a private apt state and unpacked into the CLI plugin folder, nothing else is installed.
install_plugins() {
  local work suite mirror
  work=$(mktemp -d)
  mirror=$(grep -rhoE 'https?://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | head -1 | tr -d ' ' || true)
  suite=${DEBIAN_NEXT_SUITE:-trixie}
  step "fetching docker-compose and docker-buildx from ${mirror:-?} ${suite}"
  [ -n "$mirror" ] || { echo "FATAL: cannot find the Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
  mkdir -p "$work/lists/partial" "$work/archives/partial" "$PLUGINS"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/} ${suite} main" >"$work/sources.list"
  local apt=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work" -o Dir::State::Status=/dev/null
    -o APT::Sandbox::User=root)
  apt-get "${apt[@]}" update -q
  (cd "$work" && apt-get "${apt[@]}" download docker-compose docker-buildx)
  for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
  install -m 0755 "$work/root/usr/libexec/docker/cli-plugins/docker-compose" \
    "$work/root/usr/libexec/docker/cli-plugins/docker-buildx" "$PLUGINS/"
  rm -rf "$work"
}

if ! engine_answers; then
  command -v dockerd >/dev/null || install_engine
  start_engine
fi
docker compose version >/dev/null 2>&1 && docker buildx version >/dev/null 2>&1 || install_plugins
docker version --format 'Docker engine {{.Server.Version}}, client {{.Client.Version}}'
docker compose version
docker buildx version
