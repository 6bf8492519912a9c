set -e
for v in v1.9 v2.0 v2.10; do mkdir -p releases/$v; echo "$v" > releases/$v/VERSION; done
ln -s releases/v1.9 current
ln -s releases/v0.1 previous
