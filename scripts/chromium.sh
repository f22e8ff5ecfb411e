# Sourced by scripts/test.sh: Debian's Chromium and its driver for the players'-pages browser
# tests (tests/web/test_browser.py), installed when absent. Selenium is pointed at these two
# files (TANDEM_CHROMIUM, TANDEM_CHROMEDRIVER) and never downloads a browser of its own.
ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  export TANDEM_CHROMIUM=${TANDEM_CHROMIUM:-/usr/bin/chromium}
  export TANDEM_CHROMEDRIVER=${TANDEM_CHROMEDRIVER:-/usr/bin/chromedriver}
  export SE_OFFLINE=true  # Selenium Manager: never fetch anything
}
ensure_chromium
