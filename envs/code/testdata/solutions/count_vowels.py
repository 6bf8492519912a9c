print(sum(c in "aeiou" for c in input().lower()))
