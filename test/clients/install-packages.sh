#!/usr/bin/env bash
# Installs what `pnpm test:clients` needs from Debian when it is missing: Perl's Net::Akismet, and WordPress with
# its Akismet plugin and PHP as `pnpm test:wordpress` installs them.
set -euo pipefail

bash "$(dirname "$0")/../wordpress/install-packages.sh"
bash "$(dirname "$0")/../install-debian-packages.sh" libnet-akismet-perl
