"""wordfreq.py FILE N: print the N most frequent words of FILE as "count word",
most frequent first, ties broken alphabetically. Words are lowercased runs of
letters."""
import re
import sys
from collections import Counter


def words(text):
    return re.findall(r"[a-z]+", text)


def main():
    path, n = sys.argv[1], sys.argv[2]
    counts = Counter(words(open(path).read()))
    ranked = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    for word, count in ranked[:n]:
        print(word, count)


main()
