chmod a+x bin/greet
chmod 600 notes/private.txt
