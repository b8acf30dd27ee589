#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are missing, for the test commands that need programs
# from outside the repository (`test/wordpress/install-packages.sh`, `test/clients/install-packages.sh`).
# Some packages depend on a web server; no daemon may start during the installation (policy-rc.d, Debian's
# switch for that), unless one is in place.
set -euo pipefail

packages=("$@")
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "Debian packages present: ${packages[*]}"
  exit 0
fi

echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
install() { apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}"; }
install || { apt-get -o DPkg::Lock::Timeout=900 update && install; }
