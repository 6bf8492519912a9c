cat > build.sh <<'SH'
#!/bin/bash
set -e
mkdir -p dist
{ echo '#!/bin/bash'; for f in parts/*.sh; do cat "$f"; done; } > dist/tool
chmod +x dist/tool
SH
chmod +x build.sh
./build.sh
