#!/bin/sh
# Install Tandem Director from this folder (the unpacked tarball), or remove it again.
#
#   ./install.sh               for you alone: ~/.local/opt/tandem-director (for everyone when
#                              run as root: /opt/tandem-director)
#   ./install.sh --user        for you alone, even as root
#   ./install.sh --uninstall   remove an install: the one this script belongs to when run
#                              from it (~/.local/opt/... or /opt/...), else as above
#
# It copies the app folder, puts `tandem-director` on the PATH (~/.local/bin or
# /usr/local/bin), and registers the menu entry, the icon and the `.tandem` file type, so a
# double-clicked event file opens in the app. Nothing is downloaded; no other file is touched.
set -eu

NAME=tandem-director
MIME=application/x-tandem-event
here=$(cd "$(dirname "$0")" && pwd)
mode=install
scope=auto
for arg in "$@"; do
    case "$arg" in
        --uninstall) mode=uninstall ;;
        --user) scope=user ;;
        # the comment block at the top, and not a line of the script after it
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

owner_home=
case "$here" in
    # run from a user install, perhaps with sudo (which may set HOME to root's): remove that
    # install, in the home it belongs to, never the one in /opt
    */.local/opt/$NAME) [ "$mode" = uninstall ] && owner_home=${here%/.local/opt/$NAME} ;;
esac
if [ -n "$owner_home" ] && [ "$owner_home" != "${HOME:-}" ]; then
    app_dir=$here
    bin_dir=$owner_home/.local/bin
    share=$owner_home/.local/share
elif [ -z "$owner_home" ] && [ "$scope" = auto ] && [ "$(id -u)" = 0 ]; then
    app_dir=/opt/$NAME
    bin_dir=/usr/local/bin
    share=/usr/local/share
else
    : "${HOME:?install.sh: HOME is not set}"
    app_dir=$HOME/.local/opt/$NAME
    bin_dir=$HOME/.local/bin
    share=${XDG_DATA_HOME:-$HOME/.local/share}
fi

# caches of the menu, the icons and the file types: refreshed when the tools are there
refresh() {
    if command -v update-mime-database >/dev/null 2>&1; then
        update-mime-database "$share/mime" >/dev/null 2>&1 || true
    fi
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database "$share/applications" >/dev/null 2>&1 || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$share/icons/hicolor/index.theme" ]; then
        gtk-update-icon-cache -q -t "$share/icons/hicolor" >/dev/null 2>&1 || true
    fi
    touch "$share/icons/hicolor" 2>/dev/null || true  # icon themes notice a newer folder
}

icon_files() {
    (cd "$here/share" && find icons -type f)
}

if [ "$mode" = uninstall ]; then
    # the list of icons comes from this folder, so take it before the folder goes
    icons=$(icon_files)
    rm -f "$share/applications/$NAME.desktop" "$share/mime/packages/$NAME.xml"
    for icon in $icons; do rm -f "$share/$icon"; done
    if [ -L "$bin_dir/$NAME" ]; then rm -f "$bin_dir/$NAME"; fi
    case "$here" in
        "$app_dir") ;;  # running the installed copy: removed last, below
        *) rm -rf "$app_dir" ;;
    esac
    refresh
    echo "Tandem Director removed from $app_dir (your event files are kept)."
    if [ "$here" = "$app_dir" ]; then rm -rf "$app_dir"; fi
    exit 0
fi

if [ ! -x "$here/$NAME" ] || [ ! -d "$here/share" ]; then
    echo "install.sh: run me from the unpacked tandem-director folder" >&2
    exit 1
fi

# copy beside the old install, then swap, so a failed copy leaves the old one working
if [ "$here" != "$app_dir" ]; then
    mkdir -p "$(dirname "$app_dir")"
    rm -rf "$app_dir.new"
    cp -R "$here" "$app_dir.new"
    rm -rf "$app_dir"
    mv "$app_dir.new" "$app_dir"
fi

mkdir -p "$bin_dir" "$share/applications" "$share/mime/packages"
ln -sf "$app_dir/$NAME" "$bin_dir/$NAME"
# the menu may not search ~/.local/bin: name the program by its full path
sed -e "s|^Exec=$NAME |Exec=\"$app_dir/$NAME\" |" -e "s|^TryExec=$NAME\$|TryExec=$app_dir/$NAME|" \
    "$here/share/applications/$NAME.desktop" >"$share/applications/$NAME.desktop"
cp "$here/share/mime/packages/$NAME.xml" "$share/mime/packages/$NAME.xml"
for icon in $(icon_files); do
    mkdir -p "$(dirname "$share/$icon")"
    cp "$here/share/$icon" "$share/$icon"
done
refresh
if command -v xdg-mime >/dev/null 2>&1 && [ "$(id -u)" != 0 ]; then
    xdg-mime default "$NAME.desktop" "$MIME" 2>/dev/null || true
fi

echo "Tandem Director installed in $app_dir"
echo "Start it from the applications menu, by opening a .tandem file, or with: $bin_dir/$NAME"
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) echo "($bin_dir is not on your PATH: the menu and .tandem files work regardless)" ;;
esac
