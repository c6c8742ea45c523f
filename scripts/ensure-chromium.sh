#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing. Browser
# builds are never downloaded by a test tool (the network reaches only the
# package registries).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "chromium is missing and there is no sudo to install it" >&2; exit 1; }
	SUDO=sudo
fi
echo "installing Debian's chromium for the browser tests" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
