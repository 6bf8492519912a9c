find data -type f -size +1000c | sort > big.txt
