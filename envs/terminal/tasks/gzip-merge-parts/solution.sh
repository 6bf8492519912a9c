for i in $(seq 1 12); do gzip -dc parts/part-$i.gz; done > full.txt
