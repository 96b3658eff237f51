#!/bin/sh
# need-tools.sh WHAT COMMAND:DEBIAN-PACKAGE... — makes sure the commands a test needs exist.
# A pair "pkg:PACKAGE" checks that the Debian package itself is installed (a library, no command).
#
# Installs the Debian packages of missing commands (apt-get, non-interactive, only as root) and
# exits 0 when every command is there. Otherwise it says what is missing and exits 1 — or, on CI
# (CI=true), exits 2, so the Makefile's test targets skip with a line here and fail on CI:
#
#     if scripts/need-tools.sh "the Lua tests" luajit:luajit; then …; else [ $$? = 1 ]; fi
what=$1
shift
missing_packages=""
missing_commands=""
check() {
  missing_packages=""
  missing_commands=""
  for pair in "$@"; do
    if [ "${pair%%:*}" = pkg ]; then
      dpkg-query -W -f='${Status}' "${pair#*:}" 2>/dev/null | grep -q "ok installed" && continue
    else
      command -v "${pair%%:*}" >/dev/null 2>&1 && continue
    fi
    missing_commands="$missing_commands ${pair%%:*}"
    missing_packages="$missing_packages ${pair#*:}"
  done
}
check "$@"
[ -z "$missing_commands" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing$missing_packages (Debian packages for $what)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null >/dev/null &&
    apt-get install -y -qq --no-install-recommends $missing_packages </dev/null >/dev/null
  check "$@"
  [ -z "$missing_commands" ] && exit 0
fi
if [ "$CI" = true ]; then
  echo "== FAILED: $what need$missing_commands (apt-get install$missing_packages)"
  exit 2
fi
echo "== SKIPPED: $what: missing$missing_commands (apt-get install$missing_packages)"
exit 1
