#!/usr/bin/env bash
# Chooses the base images compose runs: NODE_IMAGE, REDIS_IMAGE and RABBITMQ_IMAGE as set in the environment,
# else the official images (the defaults of Dockerfile and docker-compose.yml) when they can be pulled, else
# stand-ins built from Debian packages (deploy/standins/), saying so. Prints the choice as KEY=value lines.
# The stand-ins sit on one Debian image made with debootstrap; Docker's own image store and build cache keep
# them between runs on the same engine (a fresh engine builds them again).
set -euo pipefail
cd "$(dirname "$0")/../.."

SUITE=trixie
BASE=spam-check-standin/debian:$SUITE
log() { printf '%s\n' "$*" >&2; }

official_default() { # the default of ${NAME:-default} in docker-compose.yml, or of ARG NAME=default
  sed -nE "s/.*\\\$\\{$1:-([^}]+)\\}.*/\\1/p; s/^ARG $1=(.*)/\\1/p" docker-compose.yml Dockerfile | head -1
}

pullable() {
  docker image inspect "$1" >/dev/null 2>&1 && return 0
  timeout 120 docker pull -q "$1" >/dev/null 2>&1
}

base_image() {
  docker image inspect "$BASE" >/dev/null 2>&1 && return
  command -v debootstrap >/dev/null || {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || { log "FATAL: debootstrap is missing"; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends -o DPkg::Lock::Timeout=600 debootstrap >&2
  }
  local mirror root
  mirror=$(grep -rhoE 'https?://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | head -1 | tr -d ' ' || true)
  root=$(mktemp -d /var/tmp/standin-rootfs.XXXXXX)
  log "==> debootstrap $SUITE (minbase) from ${mirror:=http://deb.debian.org/debian}"
  debootstrap --variant=minbase "$SUITE" "$root" "$mirror" >&2
  # What apt installs later in the stand-ins leaves out documentation, man pages and translations.
  printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' \
    'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' 'path-exclude=/usr/share/info/*' \
    >"$root/etc/dpkg/dpkg.cfg.d/01-slim"
  printf '%s\n' 'APT::Install-Recommends "false";' 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/01-slim"
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/locale/* "$root"/var/log/*.log "$root"/var/cache/debconf/*-old
  tar -C "$root" -c . | docker import -c 'CMD ["bash"]' - "$BASE" >&2
  rm -rf "$root"
}

# spam-check-standin/<name>:<suite> from deploy/standins/<name>.Dockerfile. The image carries the hash of what
# it was built from (its Dockerfile, the host's CA bundle, the base image): with the same hash it is kept as
# it is, without asking the build cache (or apt) anything.
standin() {
  local image=spam-check-standin/$1:$SUITE context hash
  context=$(mktemp -d)
  # The host's CA bundle: the node stand-in trusts what this machine trusts (see node.Dockerfile).
  cp /etc/ssl/certs/ca-certificates.crt "$context/host-ca-certificates.crt"
  hash=$(cat "deploy/standins/$1.Dockerfile" "$context/host-ca-certificates.crt" \
    <(docker image inspect -f '{{.Id}}' "$BASE") | sha256sum | cut -c1-16)
  if [ "$(docker image inspect -f '{{index .Config.Labels "spam-check.standin-hash"}}' "$image" 2>/dev/null)" = "$hash" ]; then
    log "$image is up to date ($hash)"
  else
    log "==> building $image ($hash)"
    docker build -q --build-arg "BASE_IMAGE=$BASE" --label "spam-check.standin-hash=$hash" -t "$image" \
      -f "deploy/standins/$1.Dockerfile" "$context" >&2
  fi
  rm -rf "$context"
}

for spec in NODE_IMAGE:node REDIS_IMAGE:redis RABBITMQ_IMAGE:rabbitmq; do
  variable=${spec%%:*} name=${spec#*:}
  if [ -n "${!variable:-}" ]; then
    log "$variable=${!variable} (from the environment)"
    chosen=${!variable}
  else
    official=$(official_default "$variable")
    [ -n "$official" ] || { log "FATAL: no default for $variable in docker-compose.yml or Dockerfile"; exit 1; }
    if pullable "$official"; then
      log "$variable=$official (official image)"
      chosen=$official
    else
      chosen=spam-check-standin/$name:$SUITE
      log "NOTE: $official cannot be pulled (no registry access): using $chosen, a stand-in built from Debian's packages"
      base_image
      standin "$name"
    fi
  fi
  echo "$variable=$chosen"
done
