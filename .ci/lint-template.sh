#!/usr/bin/env bash
# cfn-lint on the deployment template: no error, no warning (exit 0; its exit code is a bit mask: 2 error,
# 4 warning, 8 informational). Installs cfn-lint from PyPI into a virtual environment when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
lint=cfn-lint
if ! command -v cfn-lint >/dev/null 2>&1; then
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/moviegraph-cfn-lint"
  if [ ! -x "$venv/bin/cfn-lint" ]; then
    if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
      sudo_or_not=""; [ "$(id -u)" -eq 0 ] || sudo_or_not="sudo"
      $sudo_or_not apt-get update -qq && $sudo_or_not apt-get install -y -qq python3-venv python3-pip
    fi
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'cfn-lint==1.51.0'
  fi
  lint="$venv/bin/cfn-lint"
fi
"$lint" --version
"$lint" -c I -- deploy/template.yaml
echo "cfn-lint: deploy/template.yaml has no error, warning or informational finding"
