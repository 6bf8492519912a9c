set -e
mkdir -p notes
echo "private" > notes/private.txt
chmod 644 notes/private.txt bin/greet
