#!/usr/bin/env bash
# Installs or removes redline (and redline-mcp beside it), its man page and its shell completions under a prefix.
#   scripts/install.sh install BINARY PREFIX   (make install PREFIX=... DESTDIR=...)
#   scripts/install.sh uninstall PREFIX        (make uninstall)
# The man page is generated from the argument parser's own description of the commands
# (swift-argument-parser's generate-manual, built from the package's checkout: no network), the
# completions by `redline --generate-completion-script bash|zsh|fish`.
set -euo pipefail
action=$1
if [ "$action" = install ]; then binary=$2; prefix=$3; else prefix=$2; fi
bin="$prefix/bin/redline"
man="$prefix/share/man/man1/redline.1"
bash_c="$prefix/share/bash-completion/completions/redline"
zsh_c="$prefix/share/zsh/site-functions/_redline"
fish_c="$prefix/share/fish/vendor_completions.d/redline.fish"

case "$action" in
  install)
    generator=${GENERATE_MANUAL:-}
    if [ -z "$generator" ]; then
      swift build --product generate-manual >/dev/null
      generator="$(swift build --show-bin-path)/generate-manual"
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # A fixed date keeps the page the same from build to build.
    "$generator" "$binary" --date 2026-01-01 --output-directory "$work" >/dev/null
    "$binary" --generate-completion-script bash > "$work/bash"
    "$binary" --generate-completion-script zsh > "$work/zsh"
    "$binary" --generate-completion-script fish > "$work/fish"
    install -d "$(dirname "$bin")" "$(dirname "$man")" "$(dirname "$bash_c")" "$(dirname "$zsh_c")" "$(dirname "$fish_c")"
    install -m 755 "$binary" "$bin"
    # `redline mcp` runs redline-mcp from beside redline.
    [ -x "$(dirname "$binary")/redline-mcp" ] && install -m 755 "$(dirname "$binary")/redline-mcp" "$(dirname "$bin")/redline-mcp"
    install -m 644 "$work/redline.1" "$man"
    install -m 644 "$work/bash" "$bash_c"
    install -m 644 "$work/zsh" "$zsh_c"
    install -m 644 "$work/fish" "$fish_c"
    echo "installed $bin, $man and completions for bash, zsh and fish"
    ;;
  uninstall)
    rm -f "$bin" "$(dirname "$bin")/redline-mcp" "$man" "$bash_c" "$zsh_c" "$fish_c"
    echo "removed redline from $prefix"
    ;;
  *) echo "usage: $0 install BINARY PREFIX | uninstall PREFIX" >&2; exit 2 ;;
esac
