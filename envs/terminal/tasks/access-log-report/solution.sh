{
  echo "requests: $(wc -l < access.log)"
  echo "clients: $(awk '{print $1}' access.log | sort -u | wc -l)"
  echo "not_found: $(awk '$9 == 404' access.log | wc -l)"
  echo "top: $(awk '{print $1}' access.log | sort | uniq -c | sort -k1,1nr -k2 | head -n 1 | awk '{print $2, $1}')"
} > report.txt
