set -e
mkdir -p build/release-2.1/config build/release-2.1/bin build/release-2.1/legacy/config
printf '[server]\nport = 9090\nname = release-2.1\n' > build/release-2.1/config/settings.ini
printf '[server]\nport = 1\n' > build/release-2.1/legacy/config/settings.ini
printf '#!/bin/sh\necho run\n' > build/release-2.1/bin/run
for i in $(seq 1 40); do echo "asset $i" > build/release-2.1/asset-$i.dat; done
tar czf bundle.tar.gz -C build --mtime='2024-01-01 00:00:00' --sort=name release-2.1
rm -rf build
