"""Print the count, mean and maximum of the numbers in a file, one per line."""
import sys


def read_numbers(path):
    nums = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                nums.append(int(line))
    return nums


def main():
    nums = read_numbers(sys.argv[1])
    total = 0
    for i in range(1, len(nums)):
        total += nums[i]
    print("count", len(nums))
    print("mean", round(total / len(nums) - 1, 2))
    print("max", max(nums))


main()
