#!/usr/bin/env bash
# Installs what `pnpm test:wordpress` needs from Debian when it is missing: WordPress with its default theme and
# its translations (the test's site speaks German), PHP's CLI with the extensions WordPress uses, and gettext
# (msgfmt, xgettext) for the translation checks. The wordpress package depends on a web server (apache2); the
# test serves its site with `php -S`, so none is started during the installation.
set -euo pipefail

bash "$(dirname "$0")/../install-debian-packages.sh" wordpress wordpress-theme-twentytwentythree wordpress-l10n \
  php-cli php-curl php-mbstring php-xml php-mysql gettext
