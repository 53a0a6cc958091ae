#!/usr/bin/env bash
# Installs what Redline needs when it is missing. Usage: scripts/setup.sh build|test|bench|perf
#   build: the C libraries (libzip, libxml2, cmark-gfm; libcurl, which the static release binary links for the MCP
#          SDK's FoundationNetworking) and pkg-config
#   test:  build + the real consumers the tests open our output with (LibreOffice, pandoc, python-docx, poppler,
#          Chromium for the HTML review page), man-db (the installed man page is rendered)
#   perf:  build + valgrind and python3 (make perf-check counts instructions under callgrind)
#   bench: build + pandoc, cmark-gfm's command, GNU time and hyperfine, to measure against, and python `redlines` (PyPI) for the
#          compare bench's peer row
# As root it runs apt-get/pip itself; otherwise it prints the exact command to run.
set -euo pipefail
what=${1:-build}

need_deb=()
have_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
want() { for p in "$@"; do have_deb "$p" || need_deb+=("$p"); done; }

want pkg-config libzip-dev zlib1g-dev libxml2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libcurl4-openssl-dev zip unzip
case "$what" in
  test) want libreoffice-writer-nogui pandoc poppler-utils chromium man-db ;;
  bench) want pandoc time hyperfine cmark-gfm ;;
  perf) want valgrind python3 ;;
esac

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "setup: Swift 6 is required: https://www.swift.org/install/linux/ (a toolchain under /opt/swift)" >&2
  fi
  exit 1
fi

if [ ${#need_deb[@]} -gt 0 ]; then
  cmd="apt-get update && apt-get install -y --no-install-recommends ${need_deb[*]}"
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${need_deb[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${need_deb[@]}" >/dev/null
  else
    echo "setup: missing packages; run as root: $cmd" >&2
    exit 1
  fi
fi

if [ "$what" = bench ] && ! python3 -c 'import redlines' 2>/dev/null; then
  # The compare bench's peer (scripts/bench/70-compare.sh). Debian marks its Python externally managed.
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing python redlines" >&2
    python3 -m pip install -q redlines >/dev/null 2>&1 || python3 -m pip install -q --break-system-packages redlines >/dev/null 2>&1 \
      || echo "setup: pip install redlines failed; the compare bench's redlines row will be skipped" >&2
  else
    echo "setup: run: python3 -m pip install redlines" >&2
  fi
fi

if [ "$what" = bench ] && ! python3 -c 'import pypandoc' 2>/dev/null; then
  # The newest pandoc, a second peer beside Debian's (scripts/bench/lib.sh, PANDOC_NEW).
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing python pypandoc_binary (the newest pandoc)" >&2
    python3 -m pip install -q pypandoc_binary >/dev/null 2>&1 || python3 -m pip install -q --break-system-packages pypandoc_binary >/dev/null 2>&1 \
      || echo "setup: pip install pypandoc_binary failed; the newest-pandoc rows will be skipped" >&2
  else
    echo "setup: run: python3 -m pip install pypandoc_binary" >&2
  fi
fi

if [ "$what" = test ]; then
  if ! python3 -c 'import docx' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] || [ -w "$(python3 -c 'import site,sys; print(site.getsitepackages()[0])' 2>/dev/null || echo /)" ]; then
      echo "setup: installing python-docx" >&2
      python3 -m pip install -q python-docx >/dev/null 2>&1 || echo "setup: pip install python-docx failed; the python-docx checks will be skipped" >&2
    else
      echo "setup: run: python3 -m pip install python-docx" >&2
    fi
  fi
fi
exit 0
