cd photos
for f in *.jpeg *.JPEG; do
  [ -e "$f" ] || continue
  mv -- "$f" "${f%.*}.jpg"
done
