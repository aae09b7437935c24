#!/bin/sh
# The worked example of docs/http.md, in one go: an app under test (played by curl) signs a user up on the default
# Backendless app of a running `understudy serve`, then docs/examples/journal.lua checks, through the control API,
# what the app sent (the journal) and the state that resulted. Starts nothing itself:
#
#   understudy serve &                  # in another terminal, or in the background
#   ./docs/examples/journal.sh          # UNDERSTUDY_URL=http://127.0.0.1:9000 for another address
#
# Prints the status of each request, then the scenarios' outcome. Exit status 0 when every scenario passes, 1 when
# one fails (the reply is printed in full), 2 when the server cannot be reached.
set -eu
url=${UNDERSTUDY_URL:-http://127.0.0.1:8080}
app=$url/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY
here=$(dirname "$0")

# request LABEL CURL-ARGUMENTS...: sends one request, prints the label and the HTTP status.
request() {
  label=$1
  shift
  status=$(curl -s -o /dev/null -w '%{http_code}' "$@") || { echo "cannot reach $url: is understudy serve running?" >&2; exit 2; }
  printf '%-46s %s\n' "$label" "$status"
}

# The tester: a fresh server, email confirmation on.
request "tester: reset" -X POST "$url/_understudy/reset?journal=clear"
request "tester: email_confirmation on" -X PATCH "$url/_understudy/settings?app=UNDERSTUDY-APP" \
  -H 'Content-Type: application/json' -d '{"email_confirmation":true}'

# The app under test.
request "app: register alice@example.com" -X POST "$app/users/register" \
  -H 'Content-Type: application/json' -d '{"email":"alice@example.com","password":"wonderland"}'
request "app: log in before confirming" -X POST "$app/users/login" \
  -H 'Content-Type: application/json' -d '{"login":"alice@example.com","password":"wonderland"}'
link=$(curl -s "$url/_understudy/outbox?kind=emails&to=alice@example.com" | sed -n 's/.*"link":"\([^"]*\)".*/\1/p')
request "alice: open the confirmation link" "$link"
request "app: log in" -X POST "$app/users/login" \
  -H 'Content-Type: application/json' -d '{"login":"alice@example.com","password":"wonderland"}'
request "app: register the phone for news" -X POST "$app/messaging/registrations" \
  -H 'Content-Type: application/json' -d '{"deviceToken":"a1b2c3","deviceId":"alice-phone","os":"IOS","channels":["news"]}'

# The tester: run the scenario file against the live apps.
reply=$(curl -s -X POST "$url/_understudy/scenarios?name=journal.lua" -H 'Content-Type: text/plain' \
  --data-binary "@$here/journal.lua")
summary=$(printf '%s' "$reply" | sed -n 's/.*"passed":\([0-9]*\),"failed":\([0-9]*\),"skipped":\([0-9]*\).*/\1 passed, \2 failed, \3 skipped/p')
echo "journal.lua: ${summary:-no outcome}"
case $summary in
  *" 0 failed"*) exit 0 ;;
  *) printf '%s\n' "$reply"; exit 1 ;;
esac
