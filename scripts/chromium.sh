# Debian's Chromium and its driver for the browser tests (tests/web, driven by Selenium):
# installed with apt-get when absent (CI runs as root on a fresh machine). Sourced by test.sh.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "the browser tests need Debian's chromium and chromium-driver: apt-get install chromium chromium-driver" >&2
  fi
fi
