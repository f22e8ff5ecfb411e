# Sourced by scripts/test.sh: a real X server (Xvfb) with a window manager (openbox) for the
# focus tests marked `wm`; their display is exported as TANDEM_WM_DISPLAY. Installs Xvfb,
# openbox, xdotool and the xcb libraries Qt needs with apt-get when they are absent.
start_test_xvfb() {
  if [ -n "${TANDEM_WM_DISPLAY:-}" ]; then return 0; fi
  if ! command -v Xvfb >/dev/null || ! command -v openbox >/dev/null || ! command -v xdotool >/dev/null; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb openbox xdotool x11-utils \
      libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 \
      libxcb-xkb1 libxkbcommon-x11-0 libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libegl1 \
      libgl1 fonts-dejavu-core >/dev/null
  fi
  local n=13  # the clocks issue's display, or the next free one
  while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
  TANDEM_XVFB_PID=$!
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
  DISPLAY=":$n" openbox >/dev/null 2>&1 &
  TANDEM_OPENBOX_PID=$!
  export TANDEM_WM_DISPLAY=":$n" TANDEM_XVFB_PID TANDEM_OPENBOX_PID
}

stop_test_xvfb() {
  [ -n "${TANDEM_OPENBOX_PID:-}" ] && kill "$TANDEM_OPENBOX_PID" 2>/dev/null
  [ -n "${TANDEM_XVFB_PID:-}" ] && kill "$TANDEM_XVFB_PID" 2>/dev/null
  return 0
}
