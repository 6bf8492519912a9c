# Writes 1 to $REWARD_FILE when both fixes hold, else 0.
ok=1
[ "$(stat -c %a notes/private.txt)" = 600 ] || ok=0
mode=$(stat -c %a bin/greet)
case "$mode" in 755|775|777|555) ;; *) ok=0 ;; esac
[ "$(cat bin/greet)" = '#!/bin/sh
echo "hello from greet"' ] || ok=0
[ "$(timeout 5 ./bin/greet 2>/dev/null)" = "hello from greet" ] || ok=0
echo "$ok" > "$REWARD_FILE"
