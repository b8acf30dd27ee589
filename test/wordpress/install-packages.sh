#!/usr/bin/env bash
# Installs what `pnpm test:wordpress` needs from Debian when it is missing: WordPress with its default theme and
# its translations (the test's site speaks German), PHP's CLI with the extensions WordPress uses, and gettext
# (msgfmt, xgettext) for the translation checks.
set -euo pipefail

packages=(wordpress wordpress-theme-twentytwentythree wordpress-l10n php-cli php-curl php-mbstring php-xml php-mysql gettext)
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
# The wordpress package depends on a web server (apache2); the test serves its site with `php -S`, so no
# daemon may start during the installation (policy-rc.d, Debian's switch for that), unless one is in place.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
install() { apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}"; }
install || { apt-get -o DPkg::Lock::Timeout=300 update && install; }
