wc -w < poem.txt | tr -d ' ' > count.txt
