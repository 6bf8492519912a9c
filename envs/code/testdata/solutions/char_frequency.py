from collections import Counter
for ch, k in sorted(Counter(input().strip()).items()):
    print(ch, k)
