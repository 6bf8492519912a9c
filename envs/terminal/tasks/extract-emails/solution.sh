grep -oE '[A-Za-z0-9._+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}' contacts.txt | sort -u > emails.txt
