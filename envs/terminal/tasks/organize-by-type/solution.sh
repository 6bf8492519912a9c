cd inbox
for f in *.*; do
  [ -f "$f" ] || continue
  ext="${f##*.}"
  mkdir -p "$ext"
  mv "$f" "$ext/"
done
