#!/usr/bin/env bash
# Installs what `pnpm test:clients` needs from Debian when it is missing: Perl's Net::Akismet, and WordPress with
# its Akismet plugin and PHP as `pnpm test:wordpress` installs them.
set -euo pipefail

bash "$(dirname "$0")/../wordpress/install-packages.sh"

packages=(libnet-akismet-perl)
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
install() { apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}"; }
install || { apt-get -o DPkg::Lock::Timeout=900 update && install; }
